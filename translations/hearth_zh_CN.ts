<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
    <context>
        <name>AboutDialog</name>
        <message>
            <source>Version %1</source>
            <translation>版本 %1</translation>
        </message>
        <message>
            <source>Chat with language models that run on your own computer</source>
            <translation>与在你自己的电脑上运行的语言模型聊天</translation>
        </message>
        <message>
            <source>Qt %1 · CPU: %2</source>
            <translation>Qt %1 · CPU：%2</translation>
        </message>
        <message>
            <source>MIT License</source>
            <translation>MIT 许可证</translation>
        </message>
        <message>
            <source>Close</source>
            <translation>关闭</translation>
        </message>
        <message>
            <source>About %1</source>
            <translation>关于 %1</translation>
        </message>
    </context>
    <context>
        <name>Banner</name>
        <message>
            <source>Dismiss</source>
            <translation>关闭</translation>
        </message>
    </context>
    <context>
        <name>ChatController</name>
        <message>
            <source>Could not save the conversation: %1</source>
            <translation>无法保存对话：%1</translation>
        </message>
        <message>
            <source>Stopped: the reply kept repeating itself.</source>
            <translation>已停止：回复在不断重复。</translation>
        </message>
        <message>
            <source>Could not search the documents: %1</source>
            <translation>无法搜索文档：%1</translation>
        </message>
    </context>
    <context>
        <name>ChatHeader</name>
        <message>
            <source>Choose a model</source>
            <translation>选择模型</translation>
        </message>
        <message>
            <source>Models (Ctrl+M)</source>
            <translation>模型 (Ctrl+M)</translation>
        </message>
        <message>
            <source>No model loaded</source>
            <translation>未加载模型</translation>
        </message>
        <message>
            <source>Loading…</source>
            <translation>正在加载…</translation>
        </message>
        <message>
            <source>Loading the model</source>
            <translation>正在加载模型</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>取消</translation>
        </message>
        <message>
            <source>Cancel loading</source>
            <translation>取消加载</translation>
        </message>
        <message>
            <source>Settings</source>
            <translation>设置</translation>
        </message>
        <message>
            <source>Settings (Ctrl+,)</source>
            <translation>设置 (Ctrl+,)</translation>
        </message>
        <message>
            <source>Hide the conversations</source>
            <translation>隐藏对话列表</translation>
        </message>
        <message>
            <source>Show the conversations</source>
            <translation>显示对话列表</translation>
        </message>
        <message>
            <source>Documents (%1)</source>
            <translation>文档 (%1)</translation>
        </message>
        <message>
            <source>Documents</source>
            <translation>文档</translation>
        </message>
        <message numerus="yes">
            <source>Documents: this chat searches %n collection(s)</source>
            <translation>
                <numerusform>文档：此对话搜索 %n 个文档集</numerusform>
            </translation>
        </message>
        <message>
            <source>Ask about your own files</source>
            <translation>就你自己的文件提问</translation>
        </message>
    </context>
    <context>
        <name>ChatView</name>
        <message>
            <source>Welcome to %1</source>
            <translation>欢迎使用 %1</translation>
        </message>
        <message>
            <source>Messages</source>
            <translation>消息</translation>
        </message>
        <message>
            <source>Ask %1 anything. Everything stays on this computer.</source>
            <translation>向 %1 提出任何问题。所有内容都只保存在这台电脑上。</translation>
        </message>
        <message>
            <source>Drop a GGUF model file on this window, or choose one, to start chatting.</source>
            <translation>把 GGUF 模型文件拖到此窗口，或选择一个模型，即可开始聊天。</translation>
        </message>
        <message>
            <source>Choose a model…</source>
            <translation>选择模型…</translation>
        </message>
        <message>
            <source>Choose a model</source>
            <translation>选择模型</translation>
        </message>
        <message>
            <source>Scroll the messages</source>
            <translation>滚动消息</translation>
        </message>
    </context>
    <context>
        <name>CodeBlock</name>
        <message>
            <source>code</source>
            <translation>代码</translation>
        </message>
        <message>
            <source>Copy code</source>
            <translation>复制代码</translation>
        </message>
        <message>
            <source>Code</source>
            <translation>代码</translation>
        </message>
        <message>
            <source>Copied</source>
            <translation>已复制</translation>
        </message>
    </context>
    <context>
        <name>Composer</name>
        <message>
            <source>Message</source>
            <translation>消息</translation>
        </message>
        <message>
            <source>Send</source>
            <translation>发送</translation>
        </message>
        <message>
            <source>Send message</source>
            <translation>发送消息</translation>
        </message>
        <message>
            <source>Send a message (Enter sends, Shift+Enter for a new line)</source>
            <translation>输入消息（Enter 发送，Shift+Enter 换行）</translation>
        </message>
        <message>
            <source>Load a model to start chatting</source>
            <translation>加载模型后即可开始聊天</translation>
        </message>
        <message>
            <source>Stop</source>
            <translation>停止</translation>
        </message>
        <message>
            <source>Stop the reply</source>
            <translation>停止回复</translation>
        </message>
        <message>
            <source>Stop (Esc)</source>
            <translation>停止 (Esc)</translation>
        </message>
        <message>
            <source>The model is still loading; send once it is ready.</source>
            <translation>模型仍在加载，加载完成后即可发送。</translation>
        </message>
        <message>
            <source>No model loaded: choose one (Ctrl+M) or drop a .gguf file on the window.</source>
            <translation>尚未加载模型：请选择一个（Ctrl+M），或将 .gguf 文件拖到窗口上。</translation>
        </message>
        <message>
            <source>A reply is still being written in another conversation; send once it is done, or stop it.</source>
            <translation>另一个对话中的回复仍在生成；请等待完成后再发送，或停止它。</translation>
        </message>
        <message>
            <source>Scroll the message</source>
            <translation>滚动消息内容</translation>
        </message>
        <message>
            <source>Type a message to send.</source>
            <translation>输入消息后即可发送。</translation>
        </message>
    </context>
    <context>
        <name>ConversationDelegate</name>
        <message>
            <source>Conversation title</source>
            <translation>对话标题</translation>
        </message>
        <message>
            <source>Conversation actions</source>
            <translation>对话操作</translation>
        </message>
        <message>
            <source>Rename</source>
            <translation>重命名</translation>
        </message>
        <message>
            <source>Rename conversation</source>
            <translation>重命名对话</translation>
        </message>
        <message>
            <source>Delete</source>
            <translation>删除</translation>
        </message>
        <message>
            <source>Delete conversation</source>
            <translation>删除对话</translation>
        </message>
        <message>
            <source>Delete conversation?</source>
            <translation>删除对话？</translation>
        </message>
        <message>
            <source>“%1” and all its messages will be deleted.</source>
            <translation>“%1”及其所有消息都将被删除。</translation>
        </message>
    </context>
    <context>
        <name>ConversationListModel</name>
        <message>
            <source>Today</source>
            <translation>今天</translation>
        </message>
        <message>
            <source>Yesterday</source>
            <translation>昨天</translation>
        </message>
        <message>
            <source>Previous 7 days</source>
            <translation>过去 7 天</translation>
        </message>
        <message>
            <source>Previous 30 days</source>
            <translation>过去 30 天</translation>
        </message>
        <message>
            <source>Untitled</source>
            <translation>无标题</translation>
        </message>
    </context>
    <context>
        <name>Database</name>
        <message>
            <source>Cannot open the database %1: %2</source>
            <translation>无法打开数据库 %1：%2</translation>
        </message>
        <message>
            <source>The database %1 was written by a newer version of Hearth (schema %2; this one knows %3).</source>
            <translation>数据库 %1 由更新版本的 Hearth 写入（架构版本 %2；当前版本只支持到 %3）。</translation>
        </message>
    </context>
    <context>
        <name>DocumentViewer</name>
        <message>
            <source>Source</source>
            <translation>来源</translation>
        </message>
        <message>
            <source>Page %1 of %2</source>
            <translation>第 %1 页，共 %2 页</translation>
        </message>
        <message>
            <source>Open in its app</source>
            <translation>用对应的应用打开</translation>
        </message>
        <message>
            <source>Open the document in its own application</source>
            <translation>用文档自己的应用程序打开它</translation>
        </message>
        <message>
            <source>Close</source>
            <translation>关闭</translation>
        </message>
        <message>
            <source>The PDF view needs the QML module QtQuick.Pdf (on Debian and Ubuntu: the package %1); the indexed text is shown instead.</source>
            <translation>PDF 视图需要 QML 模块 QtQuick.Pdf（Debian 和 Ubuntu 上的软件包：%1）；现改为显示已索引的文本。</translation>
        </message>
        <message>
            <source>The PDF could not be opened (moved, changed or damaged); the indexed text is shown instead.</source>
            <translation>无法打开该 PDF（已移动、已更改或已损坏）；现改为显示已索引的文本。</translation>
        </message>
        <message>
            <source>The passage is no longer in the indexed text (the file changed?).</source>
            <translation>已索引的文本中已没有这段内容（文件改过了？）。</translation>
        </message>
    </context>
    <context>
        <name>DocumentsController</name>
        <message numerus="yes">
            <source>%n file(s) indexed</source>
            <translation>
                <numerusform>已索引 %n 个文件</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>, %n unchanged</source>
            <translation>
                <numerusform>，%n 个未变</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>, %n not read</source>
            <translation>
                <numerusform>，%n 个未能读取</numerusform>
            </translation>
        </message>
        <message>
            <source> (cancelled)</source>
            <translation>（已取消）</translation>
        </message>
        <message>
            <source>Indexing failed: %1</source>
            <translation>索引失败：%1</translation>
        </message>
        <message>
            <source>Looking for files…</source>
            <translation>正在查找文件…</translation>
        </message>
        <message>
            <source>%1 of %2 files · %3 chunks/s</source>
            <translation>%1 / %2 个文件 · 每秒 %3 个片段</translation>
        </message>
        <message>
            <source> · about %1 s left</source>
            <translation> · 约剩 %1 秒</translation>
        </message>
        <message>
            <source> · paused</source>
            <translation> · 已暂停</translation>
        </message>
        <message>
            <source>A collection needs a name.</source>
            <translation>文档集需要一个名称。</translation>
        </message>
        <message>
            <source>There is already a collection named “%1”.</source>
            <translation>已有名为“%1”的文档集。</translation>
        </message>
        <message>
            <source>%1 does not exist.</source>
            <translation>%1 不存在。</translation>
        </message>
        <message>
            <source>The embedding model %1 is not there; scripts/convert-models makes it.</source>
            <translation>嵌入模型 %1 不存在；scripts/convert-models 可以生成它。</translation>
        </message>
    </context>
    <context>
        <name>DocumentsPanel</name>
        <message>
            <source>Documents</source>
            <translation>文档</translation>
        </message>
        <message>
            <source>Documents %1</source>
            <translation>文档 %1</translation>
        </message>
        <message>
            <source>Add folder…</source>
            <translation>添加文件夹…</translation>
        </message>
        <message>
            <source>Add a folder of documents</source>
            <translation>添加一个文档文件夹</translation>
        </message>
        <message>
            <source>Add files…</source>
            <translation>添加文件…</translation>
        </message>
        <message>
            <source>Add document files</source>
            <translation>添加文档文件</translation>
        </message>
        <message>
            <source>Close</source>
            <translation>关闭</translation>
        </message>
        <message>
            <source>Hearth reads your files on this computer and answers from them, citing file and page. Tick the collections this chat should search.</source>
            <translation>Hearth 在这台电脑上读取你的文件并据此回答，注明文件和页码。勾选此对话要搜索的文档集。</translation>
        </message>
        <message>
            <source>The embedding model is missing (%1), so documents cannot be indexed or searched. scripts/convert-models makes it from the all-MiniLM-L6-v2 download.</source>
            <translation>缺少嵌入模型（%1），因此无法索引或搜索文档。scripts/convert-models 可以用下载的 all-MiniLM-L6-v2 生成它。</translation>
        </message>
        <message>
            <source>Indexing</source>
            <translation>正在索引</translation>
        </message>
        <message>
            <source>Resume</source>
            <translation>继续</translation>
        </message>
        <message>
            <source>Pause</source>
            <translation>暂停</translation>
        </message>
        <message>
            <source>Resume indexing</source>
            <translation>继续索引</translation>
        </message>
        <message>
            <source>Pause indexing</source>
            <translation>暂停索引</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>取消</translation>
        </message>
        <message>
            <source>Cancel indexing</source>
            <translation>取消索引</translation>
        </message>
        <message>
            <source>Last run: %1</source>
            <translation>上次运行：%1</translation>
        </message>
        <message>
            <source>No documents yet. Add a folder or files: PDF, Word (DOCX), OpenDocument (ODT), Markdown, HTML, text and code.</source>
            <translation>还没有文档。添加文件夹或文件：PDF、Word（DOCX）、OpenDocument（ODT）、Markdown、HTML、文本和代码。</translation>
        </message>
        <message>
            <source>Search “%1” in this chat</source>
            <translation>在此对话中搜索“%1”</translation>
        </message>
        <message>
            <source>Add a folder to “%1”</source>
            <translation>向“%1”添加文件夹</translation>
        </message>
        <message>
            <source>Add files to “%1”</source>
            <translation>向“%1”添加文件</translation>
        </message>
        <message>
            <source>Re-index</source>
            <translation>重新索引</translation>
        </message>
        <message>
            <source>Index “%1” again</source>
            <translation>重新索引“%1”</translation>
        </message>
        <message>
            <source>Remove</source>
            <translation>移除</translation>
        </message>
        <message>
            <source>Remove the collection “%1”</source>
            <translation>移除文档集“%1”</translation>
        </message>
        <message numerus="yes">
            <source>%n document(s) indexed, %1 passages</source>
            <translation>
                <numerusform>已索引 %n 个文档，%1 个段落</numerusform>
            </translation>
        </message>
        <message>
            <source>Stop using %1</source>
            <translation>不再使用 %1</translation>
        </message>
        <message numerus="yes">
            <source>Hide the %n file(s) not read</source>
            <translation>
                <numerusform>隐藏 %n 个未能读取的文件</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n file(s) not read: show why</source>
            <translation>
                <numerusform>%n 个文件未能读取：查看原因</numerusform>
            </translation>
        </message>
        <message>
            <source>Remove “%1”?</source>
            <translation>移除“%1”？</translation>
        </message>
        <message>
            <source>Hearth forgets the collection and its index. Your files stay where they are.</source>
            <translation>Hearth 会忘掉这个文档集及其索引。你的文件仍留在原处。</translation>
        </message>
        <message>
            <source>Add documents</source>
            <translation>添加文档</translation>
        </message>
        <message>
            <source>Documents (*.pdf *.docx *.odt *.md *.markdown *.html *.htm *.txt)</source>
            <translation>文档 (*.pdf *.docx *.odt *.md *.markdown *.html *.htm *.txt)</translation>
        </message>
        <message>
            <source>All files (*)</source>
            <translation>所有文件 (*)</translation>
        </message>
        <message>
            <source>Add a document</source>
            <translation>添加一个文档</translation>
        </message>
        <message>
            <source>/path/to/documents</source>
            <translation>/路径/到/文档</translation>
        </message>
        <message>
            <source>/path/to/report.pdf</source>
            <translation>/路径/到/报告.pdf</translation>
        </message>
        <message>
            <source>Document path</source>
            <translation>文档路径</translation>
        </message>
    </context>
    <context>
        <name>DownloadManager</name>
        <message>
            <source>Nothing to download for %1.</source>
            <translation>%1 没有可下载的内容。</translation>
        </message>
        <message>
            <source>Cannot create the folder %1.</source>
            <translation>无法创建文件夹 %1。</translation>
        </message>
        <message>
            <source>%1 is being downloaded by another Hearth process.</source>
            <translation>另一个 Hearth 进程正在下载 %1。</translation>
        </message>
        <message>
            <source>Not enough disk space for %1: it needs %2 more, and %3 is free in %4.</source>
            <translation>磁盘空间不足，无法下载 %1：还需要 %2，而 %4 中只有 %3 可用。</translation>
        </message>
        <message>
            <source>Cannot write %1.</source>
            <translation>无法写入 %1。</translation>
        </message>
        <message>
            <source>Cannot write %1: %2.</source>
            <translation>无法写入 %1：%2。</translation>
        </message>
        <message>
            <source>%1: the server sent another byte range than the one asked for.</source>
            <translation>%1：服务器发送的字节范围与请求的不同。</translation>
        </message>
        <message>
            <source>%1: the server sent more than the %2 bytes the hub lists.</source>
            <translation>%1：服务器发送的数据超过了 Hub 列出的 %2 字节。</translation>
        </message>
        <message>
            <source>Cannot write %1 (%2): is the disk full? The partial download was deleted.</source>
            <translation>无法写入 %1（%2）：磁盘是否已满？未完成的下载已删除。</translation>
        </message>
        <message>
            <source>%1: too many redirects.</source>
            <translation>%1：重定向次数过多。</translation>
        </message>
        <message>
            <source>%1 in %2</source>
            <translation>%2 中的 %1</translation>
        </message>
        <message>
            <source>%1: the connection ended after %2 of %3.</source>
            <translation>%1：连接在 %3 中的 %2 之后中断。</translation>
        </message>
        <message>
            <source>Resume to continue from %1%.</source>
            <translation>继续下载即可从 %1% 处接着下载。</translation>
        </message>
        <message>
            <source>%1: its SHA-256 is %2, but the hub lists %3. The download was deleted.</source>
            <translation>%1：其 SHA-256 为 %2，但 Hub 列出的是 %3。下载已删除。</translation>
        </message>
        <message>
            <source>Cannot move %1 into place.</source>
            <translation>无法将 %1 移动到位。</translation>
        </message>
    </context>
    <context>
        <name>DropOverlay</name>
        <message>
            <source>Drop to open this model</source>
            <translation>松开即可打开此模型</translation>
        </message>
    </context>
    <context>
        <name>EditBox</name>
        <message>
            <source>Edited message</source>
            <translation>编辑后的消息</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>取消</translation>
        </message>
        <message>
            <source>Cancel editing</source>
            <translation>取消编辑</translation>
        </message>
        <message>
            <source>Send</source>
            <translation>发送</translation>
        </message>
        <message>
            <source>Send the edited message</source>
            <translation>发送编辑后的消息</translation>
        </message>
    </context>
    <context>
        <name>EndpointListModel</name>
        <message numerus="yes">
            <source>%n model(s)</source>
            <translation>
                <numerusform>%n 个模型</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Connected: %n model(s).</source>
            <translation>
                <numerusform>已连接：%n 个模型。</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>EnginesDialog</name>
        <message>
            <source>Engines</source>
            <translation>引擎</translation>
        </message>
        <message>
            <source>Saved.</source>
            <translation>已保存。</translation>
        </message>
        <message>
            <source>Edit</source>
            <translation>编辑</translation>
        </message>
        <message>
            <source>Edit %1</source>
            <translation>编辑 %1</translation>
        </message>
        <message>
            <source>Remove</source>
            <translation>移除</translation>
        </message>
        <message>
            <source>Remove %1</source>
            <translation>移除 %1</translation>
        </message>
        <message>
            <source>Edit the endpoint</source>
            <translation>编辑端点</translation>
        </message>
        <message>
            <source>Add an endpoint</source>
            <translation>添加端点</translation>
        </message>
        <message>
            <source>Name</source>
            <translation>名称</translation>
        </message>
        <message>
            <source>GPU box</source>
            <translation>GPU 服务器</translation>
        </message>
        <message>
            <source>Base URL</source>
            <translation>基础 URL</translation>
        </message>
        <message>
            <source>API key</source>
            <translation>API 密钥</translation>
        </message>
        <message>
            <source>kept in the keychain; type to replace</source>
            <translation>保存在钥匙串中；输入以替换</translation>
        </message>
        <message>
            <source>none</source>
            <translation>无</translation>
        </message>
        <message>
            <source>Remove the stored key</source>
            <translation>移除已保存的密钥</translation>
        </message>
        <message>
            <source>Headers</source>
            <translation>请求头</translation>
        </message>
        <message>
            <source>Optional, one per line: Name: value</source>
            <translation>可选，每行一个：名称: 值</translation>
        </message>
        <message>
            <source>Extra headers</source>
            <translation>额外请求头</translation>
        </message>
        <message>
            <source>Certificate</source>
            <translation>证书</translation>
        </message>
        <message>
            <source>a certificate is trusted</source>
            <translation>已信任一个证书</translation>
        </message>
        <message>
            <source>optional: a PEM file to trust</source>
            <translation>可选：要信任的 PEM 文件</translation>
        </message>
        <message>
            <source>Certificate file</source>
            <translation>证书文件</translation>
        </message>
        <message>
            <source>Choose…</source>
            <translation>选择…</translation>
        </message>
        <message>
            <source>Stop trusting the added certificate</source>
            <translation>不再信任添加的证书</translation>
        </message>
        <message>
            <source>Timeout (s)</source>
            <translation>超时（秒）</translation>
        </message>
        <message>
            <source>Seconds without data before giving up</source>
            <translation>无数据多少秒后放弃</translation>
        </message>
        <message>
            <source>Send top-k, min-p and repeat penalty (llama.cpp, vLLM, LocalAI)</source>
            <translation>发送 top-k、min-p 和重复惩罚（llama.cpp、vLLM、LocalAI）</translation>
        </message>
        <message>
            <source>Testing…</source>
            <translation>正在测试…</translation>
        </message>
        <message>
            <source>Test connection</source>
            <translation>测试连接</translation>
        </message>
        <message>
            <source>Save</source>
            <translation>保存</translation>
        </message>
        <message>
            <source>Add</source>
            <translation>添加</translation>
        </message>
        <message>
            <source>New</source>
            <translation>新建</translation>
        </message>
        <message>
            <source>The conversation is sent to the server you add here. TLS certificates are always checked.</source>
            <translation>对话会发送到你在此添加的服务器。TLS 证书始终会被校验。</translation>
        </message>
        <message>
            <source>A certificate to trust</source>
            <translation>要信任的证书</translation>
        </message>
        <message>
            <source>Certificates (*.pem *.crt)</source>
            <translation>证书 (*.pem *.crt)</translation>
        </message>
        <message>
            <source>All files (*)</source>
            <translation>所有文件 (*)</translation>
        </message>
    </context>
    <context>
        <name>FakeEngine</name>
        <message>
            <source>The model file has no chat template; using the chatml format.</source>
            <translation>模型文件没有聊天模板，将使用 chatml 格式。</translation>
        </message>
        <message>
            <source>No model is loaded.</source>
            <translation>尚未加载模型。</translation>
        </message>
    </context>
    <context>
        <name>FitEstimator</name>
        <message>
            <source>on the GPU, %1 of %2 free there (%3 in RAM)</source>
            <translation>在 GPU 上，需要 %1，可用 %2（内存中 %3）</translation>
        </message>
        <message>
            <source>%1 of %2 layers on the GPU (%3 of %4 free there), the rest in RAM (%5 of %6 available)</source>
            <translation>%2 层中的 %1 层在 GPU 上（需要 %3，可用 %4），其余在内存中（需要 %5，可用 %6）</translation>
        </message>
        <message>
            <source>in RAM, needs %1 of %2 available</source>
            <translation>在内存中，需要 %1，可用 %2</translation>
        </message>
        <message>
            <source>%1 layers need %2 on the GPU, %3 free there</source>
            <translation>%1 层在 GPU 上需要 %2，可用 %3</translation>
        </message>
        <message>
            <source>needs %1 of %2 available in RAM</source>
            <translation>内存需要 %1，可用 %2</translation>
        </message>
    </context>
    <context>
        <name>GaugeBar</name>
        <message>
            <source>Performance</source>
            <translation>性能</translation>
        </message>
        <message>
            <source>Generation</source>
            <translation>生成</translation>
        </message>
        <message>
            <source>Prompt</source>
            <translation>提示词</translation>
        </message>
        <message>
            <source>First token</source>
            <translation>首个词元</translation>
        </message>
        <message>
            <source>Context %1 / %2</source>
            <translation>上下文 %1 / %2</translation>
        </message>
        <message>
            <source>Context full: the oldest messages were dropped</source>
            <translation>上下文已满：最早的消息已被丢弃</translation>
        </message>
        <message>
            <source>Memory</source>
            <translation>内存</translation>
        </message>
        <message>
            <source>Weights</source>
            <translation>权重</translation>
        </message>
        <message>
            <source>KV cache</source>
            <translation>KV 缓存</translation>
        </message>
        <message>
            <source>GPU memory %1</source>
            <translation>GPU 显存 %1</translation>
        </message>
        <message>
            <source>GPU memory</source>
            <translation>GPU 显存</translation>
        </message>
        <message>
            <source>Documents ≈%1 tokens</source>
            <translation>文档约 %1 个词元</translation>
        </message>
    </context>
    <context>
        <name>Gauges</name>
        <message>
            <source>%1 tokens/s</source>
            <translation>%1 词元/秒</translation>
        </message>
        <message>
            <source>–</source>
            <translation>–</translation>
        </message>
        <message>
            <source>%1 (%2 resident)</source>
            <translation>%1（常驻 %2）</translation>
        </message>
        <message>
            <source>%1 of %2</source>
            <translation>%1 / %2</translation>
        </message>
    </context>
    <context>
        <name>GetModelsPage</name>
        <message>
            <source>%1 GB</source>
            <translation>%1 GB</translation>
        </message>
        <message>
            <source>%1 MB</source>
            <translation>%1 MB</translation>
        </message>
        <message>
            <source>Get models</source>
            <translation>获取模型</translation>
        </message>
        <message>
            <source>Asking Hugging Face</source>
            <translation>正在查询 Hugging Face</translation>
        </message>
        <message>
            <source>Close</source>
            <translation>关闭</translation>
        </message>
        <message>
            <source>There is no model yet. Download one from Hugging Face below, drop a .gguf file on the window, or open one.</source>
            <translation>还没有模型。可在下方从 Hugging Face 下载，把 .gguf 文件拖到窗口中，或打开一个文件。</translation>
        </message>
        <message>
            <source>Open file…</source>
            <translation>打开文件…</translation>
        </message>
        <message>
            <source>Search GGUF models (e.g. smollm2, qwen, gemma)</source>
            <translation>搜索 GGUF 模型（例如 smollm2、qwen、gemma）</translation>
        </message>
        <message>
            <source>Search models</source>
            <translation>搜索模型</translation>
        </message>
        <message>
            <source>Most downloaded</source>
            <translation>下载最多</translation>
        </message>
        <message>
            <source>Most liked</source>
            <translation>最受喜爱</translation>
        </message>
        <message>
            <source>Recently updated</source>
            <translation>最近更新</translation>
        </message>
        <message>
            <source>Order</source>
            <translation>排序</translation>
        </message>
        <message>
            <source>Search</source>
            <translation>搜索</translation>
        </message>
        <message>
            <source>Hugging Face access token (hf_…)</source>
            <translation>Hugging Face 访问令牌（hf_…）</translation>
        </message>
        <message>
            <source>Access token</source>
            <translation>访问令牌</translation>
        </message>
        <message>
            <source>Use token</source>
            <translation>使用令牌</translation>
        </message>
        <message>
            <source>Repositories</source>
            <translation>仓库</translation>
        </message>
        <message>
            <source>%1 downloads · %2 likes · updated %3</source>
            <translation>%1 次下载 · %2 个赞 · 更新于 %3</translation>
        </message>
        <message>
            <source>%1 · %2 · %3 M parameters · trained context %4 · %5 · needs %6, %7</source>
            <translation type="vanished">%1 · %2 · %3 M 参数 · 训练上下文 %4 · %5 · 需要 %6，%7</translation>
        </message>
        <message>
            <source>chat template</source>
            <translation>有聊天模板</translation>
        </message>
        <message>
            <source>no chat template</source>
            <translation>无聊天模板</translation>
        </message>
        <message>
            <source>fits in memory</source>
            <translation type="vanished">内存足够</translation>
        </message>
        <message>
            <source>does not fit in memory</source>
            <translation type="vanished">内存不足</translation>
        </message>
        <message>
            <source>Files</source>
            <translation>文件</translation>
        </message>
        <message>
            <source>recommended</source>
            <translation>推荐</translation>
        </message>
        <message>
            <source>too large</source>
            <translation>太大</translation>
        </message>
        <message>
            <source>Download</source>
            <translation>下载</translation>
        </message>
        <message>
            <source>Download %1</source>
            <translation>下载 %1</translation>
        </message>
        <message>
            <source>Downloads</source>
            <translation>下载列表</translation>
        </message>
        <message>
            <source>%1 downloaded</source>
            <translation>已下载 %1</translation>
        </message>
        <message>
            <source>%1% · %2/s · %3 s left</source>
            <translation>%1% · %2/秒 · 剩余 %3 秒</translation>
        </message>
        <message>
            <source>Pause</source>
            <translation>暂停</translation>
        </message>
        <message>
            <source>Resume</source>
            <translation>继续</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>取消</translation>
        </message>
        <message>
            <source>%1 · %2 · %3 M parameters · trained context %4 · %5 · %6</source>
            <translation>%1 · %2 · %3 M 参数 · 训练上下文 %4 · %5 · %6</translation>
        </message>
        <message>
            <source>fits: %1</source>
            <translation>可以装入：%1</translation>
        </message>
        <message>
            <source>may not fit: %1</source>
            <translation>可能装不下：%1</translation>
        </message>
    </context>
    <context>
        <name>HeaderFacts</name>
        <message>
            <source>The file %1 does not exist.</source>
            <translation>文件 %1 不存在。</translation>
        </message>
        <message>
            <source>%1 is not a file.</source>
            <translation>%1 不是文件。</translation>
        </message>
        <message>
            <source>%1 is a GGUF file but names no model architecture (general.architecture is missing).</source>
            <translation>%1 是 GGUF 文件，但没有指明模型架构（缺少 general.architecture）。</translation>
        </message>
        <message>
            <source>%1 holds no tensors.</source>
            <translation>%1 不包含任何张量。</translation>
        </message>
        <message>
            <source>%1 is not a valid model: %2</source>
            <translation>%1 不是有效的模型：%2</translation>
        </message>
    </context>
    <context>
        <name>HubClient</name>
        <message>
            <source>%1 is gated or private: the hub answered HTTP %2. Enter a Hugging Face access token that can read it (or set HF_TOKEN).</source>
            <translation>%1 需要授权或为私有仓库：Hub 返回 HTTP %2。请输入可以读取它的 Hugging Face 访问令牌（或设置 HF_TOKEN）。</translation>
        </message>
        <message>
            <source>The hub refused the token for %1 (HTTP %2): check that it is valid and that its account has accepted the repository's terms.</source>
            <translation>Hub 拒绝了用于 %1 的令牌（HTTP %2）：请检查令牌是否有效，以及其账户是否已接受该仓库的条款。</translation>
        </message>
        <message>
            <source>%1: no such revision on %2.</source>
            <translation>%1：%2 上没有此版本。</translation>
        </message>
        <message>
            <source>%1 was not found in the repository on %2.</source>
            <translation>在 %2 上的仓库中找不到 %1。</translation>
        </message>
        <message>
            <source>%1 was not found on %2 (HTTP 404).</source>
            <translation>在 %2 上找不到 %1（HTTP 404）。</translation>
        </message>
        <message>
            <source>%1: %2 refused the byte range asked for (HTTP 416).</source>
            <translation>%1：%2 拒绝了请求的字节范围（HTTP 416）。</translation>
        </message>
        <message>
            <source>%1: %2 answered HTTP %3 %4.</source>
            <translation>%1：%2 返回 HTTP %3 %4。</translation>
        </message>
        <message>
            <source>%1: cancelled.</source>
            <translation>%1：已取消。</translation>
        </message>
        <message>
            <source>%1: %2 sent nothing for %3 s; the download stopped.</source>
            <translation>%1：%2 已有 %3 秒没有发送数据；下载已停止。</translation>
        </message>
        <message>
            <source>Cannot find the host %1 (DNS lookup failed): check the network connection or HF_ENDPOINT.</source>
            <translation>找不到主机 %1（DNS 查询失败）：请检查网络连接或 HF_ENDPOINT。</translation>
        </message>
        <message>
            <source>%1 refused the connection (%2).</source>
            <translation>%1 拒绝了连接（%2）。</translation>
        </message>
        <message>
            <source>%1 closed the connection (%2).</source>
            <translation>%1 关闭了连接（%2）。</translation>
        </message>
        <message>
            <source>The TLS (HTTPS) handshake with %1 failed: %2.</source>
            <translation>与 %1 的 TLS（HTTPS）握手失败：%2。</translation>
        </message>
        <message>
            <source>%1: %2.</source>
            <translation>%1：%2。</translation>
        </message>
        <message>
            <source>the search for '%1'</source>
            <translation>对“%1”的搜索</translation>
        </message>
        <message>
            <source>The hub's answer for %1 is not a list.</source>
            <translation>Hub 对 %1 的回答不是列表。</translation>
        </message>
        <message>
            <source>The repository %1</source>
            <translation>仓库 %1</translation>
        </message>
        <message>
            <source>The hub did not list the files of %1.</source>
            <translation>Hub 没有列出 %1 的文件。</translation>
        </message>
        <message>
            <source>No file was chosen in %1.</source>
            <translation>没有在 %1 中选择文件。</translation>
        </message>
        <message>
            <source>%1 in %2</source>
            <translation>%2 中的 %1</translation>
        </message>
        <message>
            <source>%1: its GGUF header is larger than %2 MiB; refused.</source>
            <translation>%1：其 GGUF 文件头大于 %2 MiB；已拒绝。</translation>
        </message>
        <message>
            <source>%1 is not a valid GGUF model: %2</source>
            <translation>%1 不是有效的 GGUF 模型：%2</translation>
        </message>
    </context>
    <context>
        <name>InferenceWorker</name>
        <message>
            <source>Loading was cancelled.</source>
            <translation>加载已取消。</translation>
        </message>
    </context>
    <context>
        <name>LocalServer</name>
        <message>
            <source>Load a model first: the local server serves the loaded model.</source>
            <translation>请先加载模型：本地服务器提供的是已加载的模型。</translation>
        </message>
        <message>
            <source>The API key could not be read from the keychain: %1</source>
            <translation>无法从钥匙串读取 API 密钥：%1</translation>
        </message>
        <message>
            <source>The API key could not be stored in the keychain: %1</source>
            <translation>无法将 API 密钥存入钥匙串：%1</translation>
        </message>
        <message>
            <source>Other devices need an API key, and none could be made.</source>
            <translation>其他设备需要 API 密钥，但无法生成。</translation>
        </message>
        <message>
            <source>The server could not load the model: %1</source>
            <translation>服务器无法加载模型：%1</translation>
        </message>
    </context>
    <context>
        <name>LocalServerSection</name>
        <message>
            <source>Local server</source>
            <translation>本地服务器</translation>
        </message>
        <message>
            <source>Serve the loaded model over an OpenAI-compatible API</source>
            <translation>通过 OpenAI 兼容 API 提供已加载的模型</translation>
        </message>
        <message>
            <source>Port</source>
            <translation>端口</translation>
        </message>
        <message>
            <source>Allow other devices (requires the API key)</source>
            <translation>允许其他设备（需要 API 密钥）</translation>
        </message>
        <message>
            <source>Serving at %1</source>
            <translation>服务地址：%1</translation>
        </message>
        <message>
            <source>Starting…</source>
            <translation>正在启动…</translation>
        </message>
        <message>
            <source>Off</source>
            <translation>已关闭</translation>
        </message>
        <message>
            <source>API key</source>
            <translation>API 密钥</translation>
        </message>
        <message>
            <source>New key</source>
            <translation>新密钥</translation>
        </message>
        <message>
            <source>Make a new API key</source>
            <translation>生成新的 API 密钥</translation>
        </message>
    </context>
    <context>
        <name>Main</name>
        <message>
            <source>%1 — %2</source>
            <translation>%1 — %2</translation>
        </message>
    </context>
    <context>
        <name>MessageDelegate</name>
        <message>
            <source>Your message</source>
            <translation>你的消息</translation>
        </message>
        <message>
            <source>Reply</source>
            <translation>回复</translation>
        </message>
        <message>
            <source>You</source>
            <translation>你</translation>
        </message>
        <message>
            <source>Writing a reply</source>
            <translation>正在生成回复</translation>
        </message>
        <message>
            <source>Copy</source>
            <translation>复制</translation>
        </message>
        <message>
            <source>Copy message</source>
            <translation>复制消息</translation>
        </message>
        <message>
            <source>Regenerate</source>
            <translation>重新生成</translation>
        </message>
        <message>
            <source>Regenerate reply</source>
            <translation>重新生成回复</translation>
        </message>
        <message>
            <source>Edit</source>
            <translation>编辑</translation>
        </message>
        <message>
            <source>Edit and resend</source>
            <translation>编辑并重新发送</translation>
        </message>
        <message>
            <source>%1: %2</source>
            <translation>%1：%2</translation>
        </message>
        <message>
            <source>Previous version</source>
            <translation>上一个版本</translation>
        </message>
        <message>
            <source>%1/%2</source>
            <translation>%1/%2</translation>
        </message>
        <message>
            <source>Version %1 of %2</source>
            <translation>第 %1 个版本，共 %2 个</translation>
        </message>
        <message>
            <source>Next version</source>
            <translation>下一个版本</translation>
        </message>
        <message>
            <source>Copied</source>
            <translation>已复制</translation>
        </message>
        <message>
            <source>Sources</source>
            <translation>来源</translation>
        </message>
        <message numerus="yes">
            <source>No source cited (%n passage(s) from your documents were given)</source>
            <translation>
                <numerusform>未引用来源（已提供 %n 段你的文档内容）</numerusform>
            </translation>
        </message>
        <message>
            <source>Open source %1: %2</source>
            <translation>打开来源 %1：%2</translation>
        </message>
        <message>
            <source>Sources (matched by Hearth: the model cited none)</source>
            <translation>来源（由 Hearth 匹配：模型未引用任何来源）</translation>
        </message>
    </context>
    <context>
        <name>MessageListModel</name>
        <message>
            <source>%1 tokens/s</source>
            <translation>%1 词元/秒</translation>
        </message>
        <message numerus="yes">
            <source>%n token(s)</source>
            <translation>
                <numerusform>%n 个词元</numerusform>
            </translation>
        </message>
        <message>
            <source>seed %1</source>
            <translation>种子 %1</translation>
        </message>
        <message>
            <source>stopped</source>
            <translation>已停止</translation>
        </message>
        <message>
            <source>interrupted</source>
            <translation>已中断</translation>
        </message>
        <message>
            <source>context shifted</source>
            <translation>上下文已滑动</translation>
        </message>
        <message>
            <source>Model: %1 (%2, %3)</source>
            <translation>模型：%1（%2，%3）</translation>
        </message>
        <message>
            <source>File: %1</source>
            <translation>文件：%1</translation>
        </message>
        <message>
            <source>SHA-256: %1</source>
            <translation>SHA-256：%1</translation>
        </message>
        <message>
            <source>being computed</source>
            <translation>正在计算</translation>
        </message>
        <message>
            <source>Engine: %1</source>
            <translation>引擎：%1</translation>
        </message>
        <message>
            <source>Sampler: temperature %1, top-k %2, top-p %3, min-p %4, repeat penalty %5, max tokens %6</source>
            <translation>采样：温度 %1，top-k %2，top-p %3，min-p %4，重复惩罚 %5，最大词元数 %6</translation>
        </message>
        <message>
            <source>Seed: %1</source>
            <translation>种子：%1</translation>
        </message>
        <message numerus="yes">
            <source>Prompt: %n token(s)</source>
            <translation>
                <numerusform>提示词：%n 个词元</numerusform>
            </translation>
        </message>
        <message>
            <source>Time to first token: %1</source>
            <translation>首个词元用时：%1</translation>
        </message>
        <message numerus="yes">
            <source>Generated: %n token(s)</source>
            <translation>
                <numerusform>已生成：%n 个词元</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Context: %1 of %2 tokens, %n shift(s)</source>
            <translation>
                <numerusform>上下文：%1 / %2 个词元，滑动 %n 次</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>ModelDelegate</name>
        <message>
            <source>%1 · %2 parameters · %3 · trained context %4 · %5</source>
            <translation>%1 · %2 参数 · %3 · 训练上下文 %4 · %5</translation>
        </message>
        <message>
            <source>Fits: %1</source>
            <translation>可以装入：%1</translation>
        </message>
        <message>
            <source>May not fit: %1</source>
            <translation>可能装不下：%1</translation>
        </message>
        <message>
            <source>Loaded</source>
            <translation>已加载</translation>
        </message>
        <message>
            <source>Load</source>
            <translation>加载</translation>
        </message>
        <message>
            <source>Load %1</source>
            <translation>加载 %1</translation>
        </message>
        <message>
            <source>Remote · %1 · context %2</source>
            <translation>远程 · %1 · 上下文 %2</translation>
        </message>
        <message>
            <source>Remote · %1</source>
            <translation>远程 · %1</translation>
        </message>
        <message>
            <source>Quantize…</source>
            <translation>量化…</translation>
        </message>
        <message>
            <source>Quantize %1 to another type</source>
            <translation>将 %1 量化为另一种类型</translation>
        </message>
    </context>
    <context>
        <name>ModelLibrary</name>
        <message>
            <source>%1 is not a file.</source>
            <translation>%1 不是文件。</translation>
        </message>
        <message>
            <source>%1 is not a folder.</source>
            <translation>%1 不是文件夹。</translation>
        </message>
    </context>
    <context>
        <name>ModelListModel</name>
        <message>
            <source>needs %1 of %2 available</source>
            <translation type="vanished">需要 %1，可用 %2</translation>
        </message>
        <message>
            <source>on the GPU, %1 of %2 free there (%3 in RAM)</source>
            <translation type="vanished">在 GPU 上，需要 %1，可用 %2（内存中 %3）</translation>
        </message>
        <message>
            <source>%1 of %2 layers on the GPU (%3 of %4 free there), the rest in RAM (%5 of %6 available)</source>
            <translation type="vanished">%2 层中的 %1 层在 GPU 上（需要 %3，可用 %4），其余在内存中（需要 %5，可用 %6）</translation>
        </message>
        <message>
            <source>in RAM, needs %1 of %2 available</source>
            <translation type="vanished">在内存中，需要 %1，可用 %2</translation>
        </message>
        <message>
            <source>%1 layers need %2 on the GPU, %3 free there</source>
            <translation type="vanished">%1 层在 GPU 上需要 %2，可用 %3</translation>
        </message>
        <message>
            <source>needs %1 of %2 available in RAM</source>
            <translation type="vanished">内存需要 %1，可用 %2</translation>
        </message>
    </context>
    <context>
        <name>ModelLoader</name>
        <message>
            <source>%1 · %2 parameters · %3 · context %4</source>
            <translation>%1 · %2 参数 · %3 · 上下文 %4</translation>
        </message>
        <message>
            <source>remote on %1 · context %2</source>
            <translation>远程，位于 %1 · 上下文 %2</translation>
        </message>
        <message>
            <source>remote on %1</source>
            <translation>远程，位于 %1</translation>
        </message>
    </context>
    <context>
        <name>ModelPicker</name>
        <message>
            <source>Models</source>
            <translation>模型</translation>
        </message>
        <message>
            <source>Looking for models</source>
            <translation>正在查找模型</translation>
        </message>
        <message>
            <source>Open file…</source>
            <translation>打开文件…</translation>
        </message>
        <message>
            <source>Open a model file</source>
            <translation>打开模型文件</translation>
        </message>
        <message>
            <source>Add folder…</source>
            <translation>添加文件夹…</translation>
        </message>
        <message>
            <source>Add a models folder</source>
            <translation>添加模型文件夹</translation>
        </message>
        <message>
            <source>Close</source>
            <translation>关闭</translation>
        </message>
        <message>
            <source>Folders:</source>
            <translation>文件夹：</translation>
        </message>
        <message>
            <source>Remove folder %1</source>
            <translation>移除文件夹 %1</translation>
        </message>
        <message>
            <source>No models found. Open a .gguf file, drop one on the window, or add a folder.</source>
            <translation>没有找到模型。请打开一个 .gguf 文件、把它拖到窗口上，或添加一个文件夹。</translation>
        </message>
        <message>
            <source>Open a model</source>
            <translation>打开模型</translation>
        </message>
        <message>
            <source>GGUF models (*.gguf)</source>
            <translation>GGUF 模型 (*.gguf)</translation>
        </message>
        <message>
            <source>All files (*)</source>
            <translation>所有文件 (*)</translation>
        </message>
        <message>
            <source>Get models…</source>
            <translation>获取模型…</translation>
        </message>
        <message>
            <source>Find and download models from Hugging Face</source>
            <translation>从 Hugging Face 查找并下载模型</translation>
        </message>
        <message>
            <source>Remove %1? Click again</source>
            <translation>移除 %1？再点一次确认</translation>
        </message>
        <message>
            <source>Scroll the models</source>
            <translation>滚动模型列表</translation>
        </message>
    </context>
    <context>
        <name>PathDialog</name>
        <message>
            <source>Add a models folder</source>
            <translation>添加模型文件夹</translation>
        </message>
        <message>
            <source>Open a model</source>
            <translation>打开模型</translation>
        </message>
        <message>
            <source>The file dialog cannot open: the QML module %1 is not installed (on Debian and Ubuntu: the package %2). Type the path instead.</source>
            <translation>无法打开文件对话框：未安装 QML 模块 %1（Debian 和 Ubuntu 上的软件包为 %2）。请直接输入路径。</translation>
        </message>
        <message>
            <source>/path/to/models</source>
            <translation>/路径/模型文件夹</translation>
        </message>
        <message>
            <source>/path/to/model.gguf</source>
            <translation>/路径/模型.gguf</translation>
        </message>
        <message>
            <source>Folder path</source>
            <translation>文件夹路径</translation>
        </message>
        <message>
            <source>Model file path</source>
            <translation>模型文件路径</translation>
        </message>
        <message>
            <source>Add folder</source>
            <translation>添加文件夹</translation>
        </message>
        <message>
            <source>Open</source>
            <translation>打开</translation>
        </message>
    </context>
    <context>
        <name>PdfPassageView</name>
        <message>
            <source>Page %1 of %2</source>
            <translation>第 %1 页，共 %2 页</translation>
        </message>
    </context>
    <context>
        <name>QuantizeDialog</name>
        <message>
            <source>Quantize %1</source>
            <translation>量化 %1</translation>
        </message>
        <message>
            <source>Writes a new model file next to this one; the original stays as it is.</source>
            <translation>在此文件旁写入一个新的模型文件；原文件保持不变。</translation>
        </message>
        <message>
            <source>This file is already quantized. Quantizing it again loses more quality than quantizing the original F16 or BF16 model would.</source>
            <translation>此文件已经量化过。再次量化会比量化原始的 F16 或 BF16 模型损失更多质量。</translation>
        </message>
        <message>
            <source>Estimating the sizes</source>
            <translation>正在估算大小</translation>
        </message>
        <message>
            <source>Quantization types</source>
            <translation>量化类型</translation>
        </message>
        <message>
            <source>%1, about %2, %3 bits per weight</source>
            <translation>%1，约 %2，每个权重 %3 位</translation>
        </message>
        <message>
            <source>about %1 · %2 bits per weight</source>
            <translation>约 %1 · 每个权重 %2 位</translation>
        </message>
        <message>
            <source>Requantize anyway</source>
            <translation>仍然再次量化</translation>
        </message>
        <message>
            <source>Requantize anyway, with lower quality</source>
            <translation>仍然再次量化，质量较低</translation>
        </message>
        <message>
            <source>Will write %1</source>
            <translation>将写入 %1</translation>
        </message>
        <message>
            <source>Quantizing</source>
            <translation>正在量化</translation>
        </message>
        <message>
            <source>%1: %2</source>
            <translation>%1：%2</translation>
        </message>
        <message>
            <source>Start</source>
            <translation>开始</translation>
        </message>
        <message>
            <source>Quantize to %1</source>
            <translation>量化为 %1</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>取消</translation>
        </message>
        <message>
            <source>Stop quantizing</source>
            <translation>停止量化</translation>
        </message>
        <message>
            <source>Load</source>
            <translation>加载</translation>
        </message>
        <message>
            <source>Load the quantized model</source>
            <translation>加载量化后的模型</translation>
        </message>
        <message>
            <source>Close</source>
            <translation>关闭</translation>
        </message>
    </context>
    <context>
        <name>QuantizeJob</name>
        <message>
            <source>The file is already %1.</source>
            <translation>该文件已经是 %1。</translation>
        </message>
        <message>
            <source>Requantizes weights that are already quantized: the result is lower quality than quantizing from an F16 or BF16 file.</source>
            <translation>会对已量化的权重再次量化：结果的质量低于从 F16 或 BF16 文件量化。</translation>
        </message>
        <message>
            <source>%1 is not a file.</source>
            <translation>%1 不是文件。</translation>
        </message>
        <message>
            <source>Cannot quantize %1: %2</source>
            <translation>无法量化 %1：%2</translation>
        </message>
        <message>
            <source>A quantization is already running.</source>
            <translation>已有一个量化任务在运行。</translation>
        </message>
        <message>
            <source>Choose a model to quantize first.</source>
            <translation>请先选择要量化的模型。</translation>
        </message>
        <message>
            <source>%1 is not a type Hearth can quantize to.</source>
            <translation>%1 不是 Hearth 能量化到的类型。</translation>
        </message>
        <message>
            <source>Cannot quantize to %1: %2</source>
            <translation>无法量化为 %1：%2</translation>
        </message>
        <message>
            <source>%1 is already quantized: allow requantizing to convert it to %2 (lower quality than quantizing from F16 or BF16).</source>
            <translation>%1 已经是量化过的：需允许再次量化才能转换为 %2（质量低于从 F16 或 BF16 量化）。</translation>
        </message>
        <message>
            <source>Cannot write the quantized model: %1 is not a folder.</source>
            <translation>无法写入量化后的模型：%1 不是文件夹。</translation>
        </message>
        <message>
            <source>Cannot write the quantized model: the folder %1 is read-only.</source>
            <translation>无法写入量化后的模型：文件夹 %1 是只读的。</translation>
        </message>
        <message>
            <source>Not enough disk space for the %1 file: it needs about %2, and %3 is free in %4.</source>
            <translation>磁盘空间不足，无法写入 %1 文件：大约需要 %2，而 %4 中只有 %3 可用。</translation>
        </message>
        <message>
            <source>No free file name for the %1 file in %2.</source>
            <translation>在 %2 中找不到可用于 %1 文件的空闲文件名。</translation>
        </message>
        <message>
            <source>Starting…</source>
            <translation>正在开始…</translation>
        </message>
        <message>
            <source>Cancelled; nothing was written.</source>
            <translation>已取消；没有写入任何文件。</translation>
        </message>
        <message>
            <source>Quantizing to %1 failed: %2</source>
            <translation>量化为 %1 失败：%2</translation>
        </message>
        <message>
            <source>Wrote %1 (%2); it is in the models list.</source>
            <translation>已写入 %1（%2）；它已在模型列表中。</translation>
        </message>
        <message>
            <source>Tensor %1 of %2 · %3 of %4 · %5%</source>
            <translation>张量 %1/%2 · %3/%4 · %5%</translation>
        </message>
    </context>
    <context>
        <name>SecretStore</name>
        <message>
            <source>No keychain is available to keep "%1" (%2). On Linux, Hearth needs a Secret Service such as GNOME Keyring or KWallet.</source>
            <translation>没有可用的钥匙串来保存“%1”（%2）。在 Linux 上，Hearth 需要 Secret Service，例如 GNOME Keyring 或 KWallet。</translation>
        </message>
        <message>
            <source>The keychain refused access to "%1": %2</source>
            <translation>钥匙串拒绝访问“%1”：%2</translation>
        </message>
        <message>
            <source>The keychain failed for "%1": %2</source>
            <translation>钥匙串处理“%1”时出错：%2</translation>
        </message>
    </context>
    <context>
        <name>SettingRow</name>
        <message>
            <source>this model</source>
            <translation>此模型</translation>
        </message>
        <message>
            <source>Reset</source>
            <translation>重置</translation>
        </message>
        <message>
            <source>Reset %1</source>
            <translation>重置%1</translation>
        </message>
    </context>
    <context>
        <name>SettingsModel</name>
        <message>
            <source>No GPU backend is available yet: Hearth runs models on the CPU.</source>
            <translation>暂无可用的 GPU 后端：Hearth 在 CPU 上运行模型。</translation>
        </message>
        <message>
            <source>Temperature</source>
            <translation>温度</translation>
        </message>
        <message>
            <source>Higher is more varied, lower more focused; 0 always picks the likeliest token.</source>
            <translation>越高越多样，越低越集中；为 0 时总是选择可能性最大的词元。</translation>
        </message>
        <message>
            <source>Top-k</source>
            <translation>Top-k</translation>
        </message>
        <message>
            <source>Sample only from the k likeliest tokens (0 = off).</source>
            <translation>只从可能性最大的 k 个词元中采样（0 = 关闭）。</translation>
        </message>
        <message>
            <source>Top-p</source>
            <translation>Top-p</translation>
        </message>
        <message>
            <source>Sample from the likeliest tokens that together reach this probability.</source>
            <translation>从累计概率达到该值的最可能词元中采样。</translation>
        </message>
        <message>
            <source>Min-p</source>
            <translation>Min-p</translation>
        </message>
        <message>
            <source>Drop tokens less likely than this fraction of the likeliest one.</source>
            <translation>舍弃概率低于最可能词元该比例的词元。</translation>
        </message>
        <message>
            <source>Repeat penalty</source>
            <translation>重复惩罚</translation>
        </message>
        <message>
            <source>Discourage repeating recent tokens (1 = off).</source>
            <translation>抑制重复最近出现的词元（1 = 关闭）。</translation>
        </message>
        <message>
            <source>Max tokens</source>
            <translation>最大词元数</translation>
        </message>
        <message>
            <source>The longest reply, in tokens.</source>
            <translation>回复的最大长度（词元数）。</translation>
        </message>
        <message>
            <source>Context size</source>
            <translation>上下文大小</translation>
        </message>
        <message>
            <source>How many tokens of the conversation the model sees. Applies on the next load.</source>
            <translation>模型能看到的对话词元数。下次加载时生效。</translation>
        </message>
        <message>
            <source>GPU layers</source>
            <translation>GPU 层数</translation>
        </message>
        <message>
            <source>Layers to run on a GPU.</source>
            <translation>在 GPU 上运行的层数。</translation>
        </message>
        <message>
            <source>Threads</source>
            <translation>线程数</translation>
        </message>
        <message>
            <source>CPU threads for the model (0 = one per core). Applies on the next load.</source>
            <translation>模型使用的 CPU 线程数（0 = 每个核心一个）。下次加载时生效。</translation>
        </message>
        <message>
            <source>Seed</source>
            <translation>种子</translation>
        </message>
        <message>
            <source>Random seed; -1 picks a new one for every reply (it is recorded with the reply).</source>
            <translation>随机种子；-1 表示每次回复都选一个新的（会随回复一起记录）。</translation>
        </message>
        <message>
            <source>System prompt</source>
            <translation>系统提示词</translation>
        </message>
        <message>
            <source>Instructions the model reads before the conversation.</source>
            <translation>模型在对话开始前读取的指令。</translation>
        </message>
        <message>
            <source>No Vulkan GPU was found: Hearth runs models on the CPU.</source>
            <translation>未找到 Vulkan GPU：Hearth 将在 CPU 上运行模型。</translation>
        </message>
        <message>
            <source>Layers to run on the GPU; -1 = as many as fit, more than the model has = all. Applies on the next load.</source>
            <translation>在 GPU 上运行的层数；-1 = 能放下多少就放多少，超过模型层数 = 全部。下次加载时生效。</translation>
        </message>
        <message>
            <source>GPU: %1, %2 MiB free of %3 MiB.</source>
            <translation>GPU：%1，可用 %2 MiB，共 %3 MiB。</translation>
        </message>
    </context>
    <context>
        <name>SettingsPanel</name>
        <message>
            <source>Settings</source>
            <translation>设置</translation>
        </message>
        <message>
            <source>Defaults</source>
            <translation>默认值</translation>
        </message>
        <message>
            <source>Defaults for every model</source>
            <translation>所有模型的默认值</translation>
        </message>
        <message>
            <source>This model</source>
            <translation>此模型</translation>
        </message>
        <message>
            <source>This model (none loaded)</source>
            <translation>此模型（未加载）</translation>
        </message>
        <message>
            <source>Settings of the loaded model</source>
            <translation>已加载模型的设置</translation>
        </message>
        <message>
            <source>Values set here apply to %1 only; the others follow the defaults.</source>
            <translation>此处设置的值只用于 %1；其他值沿用默认值。</translation>
        </message>
        <message>
            <source>Defaults apply to every model without its own value.</source>
            <translation>默认值适用于所有没有单独设置的模型。</translation>
        </message>
        <message>
            <source>Reload the model to apply context size and threads</source>
            <translation>重新加载模型以应用上下文大小和线程数</translation>
        </message>
        <message>
            <source>Appearance</source>
            <translation>外观</translation>
        </message>
        <message>
            <source>Follow the system</source>
            <translation>跟随系统</translation>
        </message>
        <message>
            <source>Light</source>
            <translation>浅色</translation>
        </message>
        <message>
            <source>Dark</source>
            <translation>深色</translation>
        </message>
        <message>
            <source>Engines: remote servers…</source>
            <translation>引擎：远程服务器…</translation>
        </message>
        <message>
            <source>Remote engines</source>
            <translation>远程引擎</translation>
        </message>
        <message>
            <source>Scroll the settings</source>
            <translation>滚动设置</translation>
        </message>
        <message>
            <source>Close the settings (Esc)</source>
            <translation>关闭设置（Esc）</translation>
        </message>
        <message>
            <source>Close</source>
            <translation>关闭</translation>
        </message>
        <message>
            <source>Which settings</source>
            <translation>哪一组设置</translation>
        </message>
    </context>
    <context>
        <name>Sidebar</name>
        <message>
            <source>New chat</source>
            <translation>新对话</translation>
        </message>
        <message>
            <source>Search conversations</source>
            <translation>搜索对话</translation>
        </message>
        <message>
            <source>No conversations yet</source>
            <translation>还没有对话</translation>
        </message>
        <message>
            <source>Start a new conversation (Ctrl+N)</source>
            <translation>开始新对话 (Ctrl+N)</translation>
        </message>
        <message>
            <source>Conversations</source>
            <translation>对话</translation>
        </message>
        <message>
            <source>Nothing found</source>
            <translation>没有找到</translation>
        </message>
        <message>
            <source>About %1 (F1)</source>
            <translation>关于 %1（F1）</translation>
        </message>
        <message>
            <source>About %1</source>
            <translation>关于 %1</translation>
        </message>
        <message>
            <source>Scroll the conversations</source>
            <translation>滚动对话列表</translation>
        </message>
        <message>
            <source>Deleted “%1”</source>
            <translation>已删除“%1”</translation>
        </message>
        <message>
            <source>Undo</source>
            <translation>撤销</translation>
        </message>
        <message>
            <source>Undo the delete</source>
            <translation>撤销删除</translation>
        </message>
    </context>
    <context>
        <name>documents::RetrievalWorker</name>
        <message>
            <source>The embedding model %1 is not there, so the documents cannot be searched.</source>
            <translation>嵌入模型 %1 不存在，因此无法搜索文档。</translation>
        </message>
    </context>
</TS>
