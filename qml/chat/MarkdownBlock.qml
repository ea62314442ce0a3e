import QtQuick
import Hearth

// One Markdown block of a message. Only the view its kind needs is created
// (a Loader): a code chunk (CodeBlock) or text (TextBlock: paragraph,
// heading, list item, quote, table, rule). The rich text comes rendered from
// C++ (MessageBlocksModel); a streamed token changes `html` of the tail
// block only, which is pushed to the loaded view.
Item {
    id: root

    required property int kind
    required property string html
    required property int level
    required property string marker
    required property string language
    required property int fence
    required property bool firstChunk
    required property bool lastChunk

    signal copyCodeRequested(int fence)

    readonly property bool isCode: root.kind === MessageBlocksModel.Code

    function push() {
        const code = root.isCode ? loader.item : null
        if (code) {
            code.html = root.html
            code.language = root.language
            code.firstChunk = root.firstChunk
            code.lastChunk = root.lastChunk
        }
        const text = root.isCode ? null : loader.item
        if (text) {
            text.kind = root.kind
            text.level = root.level
            text.marker = root.marker
            text.html = root.html
        }
    }

    implicitHeight: loader.item ? (loader.item as Item).implicitHeight : 0
    onHtmlChanged: root.push()
    onKindChanged: root.push()
    onLevelChanged: root.push()
    onMarkerChanged: root.push()
    onLanguageChanged: root.push()
    onFirstChunkChanged: root.push()
    onLastChunkChanged: root.push()

    Loader {
        id: loader

        width: root.width
        sourceComponent: root.isCode ? codeView : textView
        onLoaded: root.push()
    }

    Component {
        id: codeView

        CodeBlock {
            onCopyRequested: () => root.copyCodeRequested(root.fence)
        }
    }

    Component {
        id: textView

        TextBlock {}
    }
}
