<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
    <context>
        <name>AboutDialog</name>
        <message>
            <source>Version %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Chat with language models that run on your own computer</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Qt %1 · CPU: %2</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>MIT License</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Close</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>About %1</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>Banner</name>
        <message>
            <source>Dismiss</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>ChatController</name>
        <message>
            <source>Could not save the conversation: %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Stopped: the reply kept repeating itself.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Could not search the documents: %1</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>ChatHeader</name>
        <message>
            <source>Choose a model</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Models (Ctrl+M)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>No model loaded</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Loading…</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Loading the model</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Cancel</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Cancel loading</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Settings</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Settings (Ctrl+,)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Hide the conversations</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Show the conversations</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Documents (%1)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Documents</source>
            <translation type="unfinished" />
        </message>
        <message numerus="yes">
            <source>Documents: this chat searches %n collection(s)</source>
            <translation>
                <numerusform>Documents: this chat searches %n collection</numerusform>
                <numerusform>Documents: this chat searches %n collections</numerusform>
            </translation>
        </message>
        <message>
            <source>Ask about your own files</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>ChatView</name>
        <message>
            <source>Welcome to %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Messages</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Ask %1 anything. Everything stays on this computer.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Drop a GGUF model file on this window, or choose one, to start chatting.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Choose a model…</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Choose a model</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Scroll the messages</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>CodeBlock</name>
        <message>
            <source>code</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Copy code</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Code</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Copied</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>Composer</name>
        <message>
            <source>Message</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Send</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Send message</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Send a message (Enter sends, Shift+Enter for a new line)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Load a model to start chatting</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Stop</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Stop the reply</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Stop (Esc)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The model is still loading; send once it is ready.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>No model loaded: choose one (Ctrl+M) or drop a .gguf file on the window.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>A reply is still being written in another conversation; send once it is done, or stop it.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Scroll the message</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Type a message to send.</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>ConversationDelegate</name>
        <message>
            <source>Conversation title</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Conversation actions</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Rename</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Rename conversation</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Delete</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Delete conversation</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Delete conversation?</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>“%1” and all its messages will be deleted.</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>ConversationListModel</name>
        <message>
            <source>Today</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Yesterday</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Previous 7 days</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Previous 30 days</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Untitled</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>Database</name>
        <message>
            <source>Cannot open the database %1: %2</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The database %1 was written by a newer version of Hearth (schema %2; this one knows %3).</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>DocumentViewer</name>
        <message>
            <source>Source</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Page %1 of %2</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Open in its app</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Open the document in its own application</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Close</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The PDF view needs the QML module QtQuick.Pdf (on Debian and Ubuntu: the package %1); the indexed text is shown instead.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The PDF could not be opened (moved, changed or damaged); the indexed text is shown instead.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The passage is no longer in the indexed text (the file changed?).</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>DocumentsController</name>
        <message numerus="yes">
            <source>%n file(s) indexed</source>
            <translation>
                <numerusform>%n file indexed</numerusform>
                <numerusform>%n files indexed</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>, %n unchanged</source>
            <translation>
                <numerusform>, %n unchanged</numerusform>
                <numerusform>, %n unchanged</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>, %n not read</source>
            <translation>
                <numerusform>, %n not read</numerusform>
                <numerusform>, %n not read</numerusform>
            </translation>
        </message>
        <message>
            <source> (cancelled)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Indexing failed: %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Looking for files…</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 of %2 files · %3 chunks/s</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source> · about %1 s left</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source> · paused</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>A collection needs a name.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>There is already a collection named “%1”.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 does not exist.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The embedding model %1 is not there; scripts/convert-models makes it.</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>DocumentsPanel</name>
        <message>
            <source>Documents</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Documents %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Add folder…</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Add a folder of documents</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Add files…</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Add document files</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Close</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Hearth reads your files on this computer and answers from them, citing file and page. Tick the collections this chat should search.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The embedding model is missing (%1), so documents cannot be indexed or searched. scripts/convert-models makes it from the all-MiniLM-L6-v2 download.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Indexing</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Resume</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Pause</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Resume indexing</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Pause indexing</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Cancel</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Cancel indexing</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Last run: %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>No documents yet. Add a folder or files: PDF, Word (DOCX), OpenDocument (ODT), Markdown, HTML, text and code.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Search “%1” in this chat</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Add a folder to “%1”</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Add files to “%1”</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Re-index</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Index “%1” again</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Remove</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Remove the collection “%1”</source>
            <translation type="unfinished" />
        </message>
        <message numerus="yes">
            <source>%n document(s) indexed, %1 passages</source>
            <translation>
                <numerusform>%n document indexed, %1 passages</numerusform>
                <numerusform>%n documents indexed, %1 passages</numerusform>
            </translation>
        </message>
        <message>
            <source>Stop using %1</source>
            <translation type="unfinished" />
        </message>
        <message numerus="yes">
            <source>Hide the %n file(s) not read</source>
            <translation>
                <numerusform>Hide the %n file not read</numerusform>
                <numerusform>Hide the %n files not read</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n file(s) not read: show why</source>
            <translation>
                <numerusform>%n file not read: show why</numerusform>
                <numerusform>%n files not read: show why</numerusform>
            </translation>
        </message>
        <message>
            <source>Remove “%1”?</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Hearth forgets the collection and its index. Your files stay where they are.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Add documents</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Documents (*.pdf *.docx *.odt *.md *.markdown *.html *.htm *.txt)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>All files (*)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Add a document</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>/path/to/documents</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>/path/to/report.pdf</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Document path</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>DownloadManager</name>
        <message>
            <source>Nothing to download for %1.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Cannot create the folder %1.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 is being downloaded by another Hearth process.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Not enough disk space for %1: it needs %2 more, and %3 is free in %4.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Cannot write %1.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Cannot write %1: %2.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1: the server sent another byte range than the one asked for.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1: the server sent more than the %2 bytes the hub lists.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Cannot write %1 (%2): is the disk full? The partial download was deleted.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1: too many redirects.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 in %2</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1: the connection ended after %2 of %3.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Resume to continue from %1%.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1: its SHA-256 is %2, but the hub lists %3. The download was deleted.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Cannot move %1 into place.</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>DropOverlay</name>
        <message>
            <source>Drop to open this model</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>EditBox</name>
        <message>
            <source>Edited message</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Cancel</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Cancel editing</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Send</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Send the edited message</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>EndpointListModel</name>
        <message numerus="yes">
            <source>%n model(s)</source>
            <translation>
                <numerusform>%n model</numerusform>
                <numerusform>%n models</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Connected: %n model(s).</source>
            <translation>
                <numerusform>Connected: %n model.</numerusform>
                <numerusform>Connected: %n models.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>EnginesDialog</name>
        <message>
            <source>Engines</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Saved.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Edit</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Edit %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Remove</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Remove %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Edit the endpoint</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Add an endpoint</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Name</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>GPU box</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Base URL</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>API key</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>kept in the keychain; type to replace</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>none</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Remove the stored key</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Headers</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Optional, one per line: Name: value</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Extra headers</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Certificate</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>a certificate is trusted</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>optional: a PEM file to trust</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Certificate file</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Choose…</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Stop trusting the added certificate</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Timeout (s)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Seconds without data before giving up</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Send top-k, min-p and repeat penalty (llama.cpp, vLLM, LocalAI)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Testing…</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Test connection</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Save</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Add</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>New</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The conversation is sent to the server you add here. TLS certificates are always checked.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>A certificate to trust</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Certificates (*.pem *.crt)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>All files (*)</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>FakeEngine</name>
        <message>
            <source>The model file has no chat template; using the chatml format.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>No model is loaded.</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>FitEstimator</name>
        <message>
            <source>on the GPU, %1 of %2 free there (%3 in RAM)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 of %2 layers on the GPU (%3 of %4 free there), the rest in RAM (%5 of %6 available)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>in RAM, needs %1 of %2 available</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 layers need %2 on the GPU, %3 free there</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>needs %1 of %2 available in RAM</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>GaugeBar</name>
        <message>
            <source>Performance</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Generation</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Prompt</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>First token</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Context %1 / %2</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Context full: the oldest messages were dropped</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Memory</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Weights</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>KV cache</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>GPU memory %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>GPU memory</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Documents ≈%1 tokens</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>Gauges</name>
        <message>
            <source>%1 tokens/s</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>–</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 (%2 resident)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 of %2</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>GetModelsPage</name>
        <message>
            <source>%1 GB</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 MB</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Get models</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Asking Hugging Face</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Close</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>There is no model yet. Download one from Hugging Face below, drop a .gguf file on the window, or open one.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Open file…</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Search GGUF models (e.g. smollm2, qwen, gemma)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Search models</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Most downloaded</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Most liked</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Recently updated</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Order</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Search</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Hugging Face access token (hf_…)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Access token</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Use token</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Repositories</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 downloads · %2 likes · updated %3</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>chat template</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>no chat template</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Files</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>recommended</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>too large</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Download</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Download %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Downloads</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 downloaded</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1% · %2/s · %3 s left</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Pause</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Resume</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Cancel</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 · %2 · %3 M parameters · trained context %4 · %5 · %6</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>fits: %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>may not fit: %1</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>HeaderFacts</name>
        <message>
            <source>The file %1 does not exist.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 is not a file.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 is a GGUF file but names no model architecture (general.architecture is missing).</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 holds no tensors.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 is not a valid model: %2</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>HubClient</name>
        <message>
            <source>%1 is gated or private: the hub answered HTTP %2. Enter a Hugging Face access token that can read it (or set HF_TOKEN).</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The hub refused the token for %1 (HTTP %2): check that it is valid and that its account has accepted the repository's terms.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1: no such revision on %2.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 was not found in the repository on %2.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 was not found on %2 (HTTP 404).</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1: %2 refused the byte range asked for (HTTP 416).</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1: %2 answered HTTP %3 %4.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1: cancelled.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1: %2 sent nothing for %3 s; the download stopped.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Cannot find the host %1 (DNS lookup failed): check the network connection or HF_ENDPOINT.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 refused the connection (%2).</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 closed the connection (%2).</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The TLS (HTTPS) handshake with %1 failed: %2.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1: %2.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>the search for '%1'</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The hub's answer for %1 is not a list.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The repository %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The hub did not list the files of %1.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>No file was chosen in %1.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 in %2</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1: its GGUF header is larger than %2 MiB; refused.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 is not a valid GGUF model: %2</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>InferenceWorker</name>
        <message>
            <source>Loading was cancelled.</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>LocalServer</name>
        <message>
            <source>Load a model first: the local server serves the loaded model.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The API key could not be read from the keychain: %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The API key could not be stored in the keychain: %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Other devices need an API key, and none could be made.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The server could not load the model: %1</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>LocalServerSection</name>
        <message>
            <source>Local server</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Serve the loaded model over an OpenAI-compatible API</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Port</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Allow other devices (requires the API key)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Serving at %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Starting…</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Off</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>API key</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>New key</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Make a new API key</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>Main</name>
        <message>
            <source>%1 — %2</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>MessageDelegate</name>
        <message>
            <source>You</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Writing a reply</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Copy</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Copy message</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Regenerate</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Regenerate reply</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Edit</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Edit and resend</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1: %2</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Previous version</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1/%2</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Version %1 of %2</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Next version</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Copied</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Sources</source>
            <translation type="unfinished" />
        </message>
        <message numerus="yes">
            <source>No source cited (%n passage(s) from your documents were given)</source>
            <translation>
                <numerusform>No source cited (%n passage from your documents was given)</numerusform>
                <numerusform>No source cited (%n passages from your documents were given)</numerusform>
            </translation>
        </message>
        <message>
            <source>Open source %1: %2</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Sources (matched by Hearth: the model cited none)</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>MessageListModel</name>
        <message>
            <source>%1 tokens/s</source>
            <translation type="unfinished" />
        </message>
        <message numerus="yes">
            <source>%n token(s)</source>
            <translation>
                <numerusform>%n token</numerusform>
                <numerusform>%n tokens</numerusform>
            </translation>
        </message>
        <message>
            <source>seed %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>stopped</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>interrupted</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>context shifted</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Model: %1 (%2, %3)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>File: %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>SHA-256: %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>being computed</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Engine: %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Sampler: temperature %1, top-k %2, top-p %3, min-p %4, repeat penalty %5, max tokens %6</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Seed: %1</source>
            <translation type="unfinished" />
        </message>
        <message numerus="yes">
            <source>Prompt: %n token(s)</source>
            <translation>
                <numerusform>Prompt: %n token</numerusform>
                <numerusform>Prompt: %n tokens</numerusform>
            </translation>
        </message>
        <message>
            <source>Time to first token: %1</source>
            <translation type="unfinished" />
        </message>
        <message numerus="yes">
            <source>Generated: %n token(s)</source>
            <translation>
                <numerusform>Generated: %n token</numerusform>
                <numerusform>Generated: %n tokens</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Context: %1 of %2 tokens, %n shift(s)</source>
            <translation>
                <numerusform>Context: %1 of %2 tokens, %n shift</numerusform>
                <numerusform>Context: %1 of %2 tokens, %n shifts</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>ModelDelegate</name>
        <message>
            <source>%1 · %2 parameters · %3 · trained context %4 · %5</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Fits: %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>May not fit: %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Loaded</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Load</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Load %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Remote · %1 · context %2</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Remote · %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Quantize…</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Quantize %1 to another type</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>ModelLibrary</name>
        <message>
            <source>%1 is not a file.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 is not a folder.</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>ModelLoader</name>
        <message>
            <source>%1 · %2 parameters · %3 · context %4</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>remote on %1 · context %2</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>remote on %1</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>ModelPicker</name>
        <message>
            <source>Models</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Looking for models</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Open file…</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Open a model file</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Add folder…</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Add a models folder</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Close</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Folders:</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Remove folder %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>No models found. Open a .gguf file, drop one on the window, or add a folder.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Open a model</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>GGUF models (*.gguf)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>All files (*)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Get models…</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Find and download models from Hugging Face</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Remove %1? Click again</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Scroll the models</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>PathDialog</name>
        <message>
            <source>Add a models folder</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Open a model</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The file dialog cannot open: the QML module %1 is not installed (on Debian and Ubuntu: the package %2). Type the path instead.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>/path/to/models</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>/path/to/model.gguf</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Folder path</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Model file path</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Add folder</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Open</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>PdfPassageView</name>
        <message>
            <source>Page %1 of %2</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>QuantizeDialog</name>
        <message>
            <source>Quantize %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Writes a new model file next to this one; the original stays as it is.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>This file is already quantized. Quantizing it again loses more quality than quantizing the original F16 or BF16 model would.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Estimating the sizes</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Quantization types</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1, about %2, %3 bits per weight</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>about %1 · %2 bits per weight</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Requantize anyway</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Requantize anyway, with lower quality</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Will write %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Quantizing</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1: %2</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Start</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Quantize to %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Cancel</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Stop quantizing</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Load</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Load the quantized model</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Close</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>QuantizeJob</name>
        <message>
            <source>The file is already %1.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Requantizes weights that are already quantized: the result is lower quality than quantizing from an F16 or BF16 file.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 is not a file.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Cannot quantize %1: %2</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>A quantization is already running.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Choose a model to quantize first.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 is not a type Hearth can quantize to.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Cannot quantize to %1: %2</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 is already quantized: allow requantizing to convert it to %2 (lower quality than quantizing from F16 or BF16).</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Cannot write the quantized model: %1 is not a folder.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Cannot write the quantized model: the folder %1 is read-only.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Not enough disk space for the %1 file: it needs about %2, and %3 is free in %4.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>No free file name for the %1 file in %2.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Starting…</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Cancelled; nothing was written.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Quantizing to %1 failed: %2</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Wrote %1 (%2); it is in the models list.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Tensor %1 of %2 · %3 of %4 · %5%</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>SecretStore</name>
        <message>
            <source>No keychain is available to keep "%1" (%2). On Linux, Hearth needs a Secret Service such as GNOME Keyring or KWallet.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The keychain refused access to "%1": %2</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The keychain failed for "%1": %2</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>SettingRow</name>
        <message>
            <source>this model</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Reset</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Reset %1</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>SettingsModel</name>
        <message>
            <source>Temperature</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Higher is more varied, lower more focused; 0 always picks the likeliest token.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Top-k</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Sample only from the k likeliest tokens (0 = off).</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Top-p</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Sample from the likeliest tokens that together reach this probability.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Min-p</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Drop tokens less likely than this fraction of the likeliest one.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Repeat penalty</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Discourage repeating recent tokens (1 = off).</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Max tokens</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The longest reply, in tokens.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Context size</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>How many tokens of the conversation the model sees. Applies on the next load.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>GPU layers</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Threads</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>CPU threads for the model (0 = one per core). Applies on the next load.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Seed</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Random seed; -1 picks a new one for every reply (it is recorded with the reply).</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>System prompt</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Instructions the model reads before the conversation.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>No Vulkan GPU was found: Hearth runs models on the CPU.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Layers to run on the GPU; -1 = as many as fit, more than the model has = all. Applies on the next load.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>GPU: %1, %2 MiB free of %3 MiB.</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>SettingsPanel</name>
        <message>
            <source>Settings</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Defaults</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Defaults for every model</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>This model</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>This model (none loaded)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Settings of the loaded model</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Values set here apply to %1 only; the others follow the defaults.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Defaults apply to every model without its own value.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Reload the model to apply context size and threads</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Appearance</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Follow the system</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Light</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Dark</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Engines: remote servers…</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Remote engines</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Scroll the settings</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Close the settings (Esc)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Close</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Which settings</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>Sidebar</name>
        <message>
            <source>New chat</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Search conversations</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>No conversations yet</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Start a new conversation (Ctrl+N)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Conversations</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Nothing found</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>About %1 (F1)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>About %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Scroll the conversations</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Deleted “%1”</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Undo</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Undo the delete</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>documents::RetrievalWorker</name>
        <message>
            <source>The embedding model %1 is not there, so the documents cannot be searched.</source>
            <translation type="unfinished" />
        </message>
    </context>
</TS>
