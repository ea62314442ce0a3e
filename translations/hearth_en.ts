<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>ChatView</name>
    <message>
        <source>Welcome to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drop a GGUF model file on this window to start chatting.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Composer</name>
    <message>
        <source>Send a message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send message</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ConversationListModel</name>
    <message>
        <source>Today</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Yesterday</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Previous 7 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Previous 30 days</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Database</name>
    <message>
        <source>Cannot open the database %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database %1 was written by a newer version of Hearth (schema %2; this one knows %3).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Gauges</name>
    <message>
        <source>%1 tokens/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>–</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2 resident)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>HeaderFacts</name>
    <message>
        <source>The file %1 does not exist.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is a GGUF file but names no model architecture (general.architecture is missing).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 holds no tensors.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a valid model: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>InferenceWorker</name>
    <message>
        <source>Loading was cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MessageListModel</name>
    <message>
        <source>%1 tokens/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n token(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>seed %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>context shifted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model: %1 (%2, %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SHA-256: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>being computed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Engine: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sampler: temperature %1, top-k %2, top-p %3, min-p %4, repeat penalty %5, max tokens %6</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Prompt: %n token(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Time to first token: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Generated: %n token(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Context: %1 of %2 tokens, %n shift(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ModelLibrary</name>
    <message>
        <source>%1 is not a file.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ModelListModel</name>
    <message>
        <source>needs %1 of %2 available</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ModelLoader</name>
    <message>
        <source>%1 · %2 parameters · %3 · context %4</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SettingsModel</name>
    <message>
        <source>No GPU backend is available yet: Hearth runs models on the CPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Higher is more varied, lower more focused; 0 always picks the likeliest token.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Top-k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sample only from the k likeliest tokens (0 = off).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Top-p</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sample from the likeliest tokens that together reach this probability.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Min-p</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drop tokens less likely than this fraction of the likeliest one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repeat penalty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discourage repeating recent tokens (1 = off).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The longest reply, in tokens.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How many tokens of the conversation the model sees. Applies on the next load.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Layers to run on a GPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Threads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU threads for the model (0 = one per core). Applies on the next load.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Random seed; -1 picks a new one for every reply (it is recorded with the reply).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Instructions the model reads before the conversation.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Sidebar</name>
    <message>
        <source>Version %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New chat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search conversations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No conversations yet</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
