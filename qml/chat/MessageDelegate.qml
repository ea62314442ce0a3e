import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Hearth

// One message: who wrote it, its Markdown blocks (a Repeater over the
// message's own blocks model, so a streamed token only touches the tail
// block), and its actions: copy, regenerate, edit and resend. Assistant
// messages show their provenance (details line, full record in a tooltip).
Item {
    id: root

    required property double messageId
    required property string text
    required property int author
    required property MessageBlocksModel blocks
    required property int state
    required property bool streaming
    required property string details
    required property string provenance
    required property string error
    required property bool last
    required property bool actionsEnabled
    required property string modelName
    required property int alternative
    required property int alternatives
    // The documents' passages the reply cites ([{n, label, path, page, line, text}]),
    // and how many it was given.
    required property var sources
    required property int sourcesGiven

    signal copyRequested(double id)
    signal copyCodeRequested(double id, int fence)
    signal regenerateRequested()
    signal editSubmitted(double id, string text)
    signal alternativeRequested(double id, int step)
    signal sourceOpened(var source)

    property bool editing: false
    readonly property bool isUser: root.author === MessageListModel.User
    // Who wrote it: you, or the model (by name) that wrote the reply.
    readonly property string authorName: root.isUser ? qsTr("You")
                                                     : root.modelName.length > 0 ? root.modelName : AppInfo.name

    implicitHeight: column.implicitHeight + 16
    Accessible.role: Accessible.ListItem
    // Screen readers hear who wrote it and how it begins.
    Accessible.name: qsTr("%1: %2").arg(root.authorName).arg(root.text.substring(0, 120).replace(/\s+/g, " "))

    ColumnLayout {
        id: column

        x: Math.max(16, (parent.width - width) / 2)
        y: 8
        width: Math.min(parent.width - 32, 860)
        spacing: 4

        Label {
            objectName: "authorLabel"
            text: root.authorName
            elide: Text.ElideRight
            Layout.fillWidth: true
            font.bold: true
            color: root.isUser ? Theme.text : Theme.accent
        }

        Rectangle {
            Layout.fillWidth: true
            implicitHeight: blocksColumn.implicitHeight + (root.isUser ? 20 : 0)
            visible: !root.editing
            radius: Theme.radius
            color: root.isUser ? Theme.userBubble : "transparent"

            Column {
                id: blocksColumn

                x: root.isUser ? 12 : 0
                y: root.isUser ? 10 : 0
                width: parent.width - 2 * x
                spacing: 6

                Repeater {
                    model: root.blocks
                    delegate: MarkdownBlock {
                        width: parent ? parent.width : 0
                        onCopyCodeRequested: fence => root.copyCodeRequested(root.messageId, fence)
                    }
                }
            }
        }

        // Where the answer comes from: each cited passage, a click opens the
        // document at its page (or heading, or line).
        ColumnLayout {
            objectName: "sourcesList"
            Layout.fillWidth: true
            visible: !root.isUser && !root.streaming && root.sourcesGiven > 0
            spacing: 2
            Accessible.role: Accessible.List
            Accessible.name: qsTr("Sources")

            Label {
                objectName: "sourcesHeading"
                Layout.fillWidth: true
                text: root.sources.length === 0
                      ? qsTr("No source cited (%n passage(s) from your documents were given)", "", root.sourcesGiven)
                      : root.sources[0].attributed
                        ? qsTr("Sources (matched by Hearth: the model cited none)")
                        : qsTr("Sources")
                font.pixelSize: 12
                font.bold: root.sources.length > 0
                color: Theme.mutedText
                wrapMode: Text.Wrap
                Accessible.role: Accessible.Heading
            }
            Repeater {
                model: root.sources
                delegate: ToolButton {
                    id: sourceButton

                    required property var modelData

                    objectName: "sourceButton"
                    Layout.fillWidth: true
                    Layout.maximumWidth: sourceButton.parent ? sourceButton.parent.width : 0
                    text: "[%1] %2".arg(sourceButton.modelData.n).arg(sourceButton.modelData.label)
                    font.pixelSize: 12
                    Accessible.name: qsTr("Open source %1: %2").arg(sourceButton.modelData.n)
                                                                 .arg(sourceButton.modelData.label)
                    ToolTip.visible: hovered
                    ToolTip.delay: 600
                    ToolTip.text: sourceButton.modelData.text.substring(0, 400)
                    onClicked: () => root.sourceOpened(sourceButton.modelData)

                    contentItem: Label {
                        text: sourceButton.text
                        font: sourceButton.font
                        color: Theme.accent
                        elide: Text.ElideRight
                        horizontalAlignment: Text.AlignLeft
                    }
                }
            }
        }

        // Static on purpose: an animation here would redraw the whole window
        // at the display rate for the whole reply.
        Label {
            objectName: "streamingIndicator"
            visible: root.streaming
            text: "▍"
            color: Theme.accent
            Accessible.name: qsTr("Writing a reply")
        }

        Label {
            Layout.fillWidth: true
            visible: root.error.length > 0
            text: root.error
            color: Theme.danger
            wrapMode: Text.Wrap
        }

        EditBox {
            id: editor

            Layout.fillWidth: true
            visible: root.editing
            onSubmitted: text => {
                root.editing = false
                root.editSubmitted(root.messageId, text)
            }
            onCancelled: root.editing = false
        }

        RowLayout {
            Layout.fillWidth: true
            spacing: 2
            visible: !root.streaming && !root.editing

            Label {
                objectName: "detailsLabel"
                visible: root.details.length > 0
                text: root.details
                font.pixelSize: 12
                color: Theme.mutedText
                elide: Text.ElideRight
                Layout.maximumWidth: column.width - actions.implicitWidth - 8
                ToolTip.visible: detailsArea.containsMouse && root.provenance.length > 0
                ToolTip.text: root.provenance
                Accessible.name: root.details
                Accessible.description: root.provenance

                MouseArea {
                    id: detailsArea
                    anchors.fill: parent
                    hoverEnabled: true
                }
            }
            Item {
                Layout.fillWidth: true
            }
            Row {
                id: actions

                // ‹ 2/3 ›: the other replies (regenerated) or messages (edited).
                ToolButton {
                    objectName: "previousAlternative"
                    visible: root.alternatives > 1
                    enabled: root.actionsEnabled && root.alternative > 0
                    text: "‹"
                    font.pixelSize: 12
                    Accessible.name: qsTr("Previous version")
                    onClicked: root.alternativeRequested(root.messageId, -1)
                }
                Label {
                    objectName: "alternativeLabel"
                    visible: root.alternatives > 1
                    anchors.verticalCenter: parent.verticalCenter
                    text: qsTr("%1/%2").arg(root.alternative + 1).arg(root.alternatives)
                    font.pixelSize: 12
                    color: Theme.mutedText
                    Accessible.name: qsTr("Version %1 of %2").arg(root.alternative + 1).arg(root.alternatives)
                }
                ToolButton {
                    objectName: "nextAlternative"
                    visible: root.alternatives > 1
                    enabled: root.actionsEnabled && root.alternative < root.alternatives - 1
                    text: "›"
                    font.pixelSize: 12
                    Accessible.name: qsTr("Next version")
                    onClicked: root.alternativeRequested(root.messageId, 1)
                }

                ToolButton {
                    id: copyButton

                    // "Copied" for a moment: the click did something.
                    property bool copied: false

                    objectName: "copyMessageButton"
                    text: copyButton.copied ? qsTr("Copied") : qsTr("Copy")
                    font.pixelSize: 12
                    Accessible.name: copyButton.copied ? qsTr("Copied") : qsTr("Copy message")
                    onClicked: {
                        root.copyRequested(root.messageId)
                        copyButton.copied = true
                        copiedTimer.restart()
                    }

                    Timer {
                        id: copiedTimer

                        interval: 1500
                        onTriggered: copyButton.copied = false
                    }
                }
                ToolButton {
                    objectName: "regenerateButton"
                    visible: !root.isUser && root.last
                    enabled: root.actionsEnabled
                    text: qsTr("Regenerate")
                    font.pixelSize: 12
                    Accessible.name: qsTr("Regenerate reply")
                    onClicked: root.regenerateRequested()
                }
                ToolButton {
                    objectName: "editButton"
                    visible: root.isUser
                    enabled: root.actionsEnabled
                    text: qsTr("Edit")
                    font.pixelSize: 12
                    Accessible.name: qsTr("Edit and resend")
                    onClicked: {
                        editor.text = root.text
                        root.editing = true
                        editor.focusInput()
                    }
                }
            }
        }
    }
}
