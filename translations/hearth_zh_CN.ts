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
    </context>
    <context>
        <name>ModelLibrary</name>
        <message>
            <source>%1 is not a file.</source>
            <translation>%1 不是文件。</translation>
        </message>
    </context>
    <context>
        <name>ModelListModel</name>
        <message>
            <source>needs %1 of %2 available</source>
            <translation>需要 %1，可用 %2</translation>
        </message>
    </context>
    <context>
        <name>ModelLoader</name>
        <message>
            <source>%1 · %2 parameters · %3 · context %4</source>
            <translation>%1 · %2 参数 · %3 · 上下文 %4</translation>
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
    </context>
    <context>
        <name>SecretStore</name>
        <message>
            <source>No keychain is available to keep "%1" (%2). On Linux, Hearth needs a Secret Service such as GNOME Keyring or KWallet.</source>
            <translation>没有可用的钥匙串来保存“%1”（%2）。在 Linux 上，Hearth 需要 GNOME Keyring 或 KWallet 等 Secret Service。</translation>
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
            <translation>未找到 Vulkan GPU：Hearth 在 CPU 上运行模型。</translation>
        </message>
        <message>
            <source>Layers to run on the GPU; -1 = as many as fit, more than the model has = all. Applies on the next load.</source>
            <translation>在 GPU 上运行的层数；-1 = 尽可能多，超过模型层数 = 全部。下次加载时生效。</translation>
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
    </context>
</TS>
