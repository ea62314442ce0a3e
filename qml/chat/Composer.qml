import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Hearth

// The message box: Enter sends, Shift+Enter starts a new line, Esc stops
// the reply. While a reply streams the Send button becomes Stop. When a
// message cannot be sent (no model yet, still loading), Send looks disabled
// and, once there is text, a line under the box says why; Enter shows that
// line too instead of doing nothing.
Pane {
    id: root

    required property ChatController chat
    required property bool modelLoaded
    property bool modelLoading: false

    // Why a message cannot be sent now ("" when it can).
    readonly property bool replyElsewhere: root.chat.replyElsewhere
    readonly property string blockedReason: root.modelLoading
        ? qsTr("The model is still loading; send once it is ready.")
        : !root.modelLoaded ? qsTr("No model loaded: choose one (Ctrl+M) or drop a .gguf file on the window.")
        : root.replyElsewhere ? qsTr("A reply is still being written in another conversation; send once it is done, or stop it.")
        : ""
    // Enter was pressed while blocked: say why until the text changes.
    property bool triedToSend: false

    function focusInput() {
        input.forceActiveFocus()
    }

    function submit() {
        if (input.text.trim().length === 0)
            return
        if (root.chat.send(input.text))
            input.clear()
        else
            root.triedToSend = true
    }

    padding: 12
    background: Rectangle {
        color: Theme.surface
    }

    ColumnLayout {
        anchors.fill: parent
        spacing: 4

        RowLayout {
            Layout.fillWidth: true
            spacing: 8

            ScrollView {
                Layout.fillWidth: true
                Layout.preferredHeight: Math.min(160, Math.max(44, input.implicitHeight))
                ScrollBar.vertical: ScrollBar {
                    Accessible.name: qsTr("Scroll the message")
                }
                // Text wraps: nothing to scroll sideways.
                ScrollBar.horizontal: ScrollBar {
                    policy: ScrollBar.AlwaysOff
                    visible: false
                    Accessible.name: qsTr("Scroll the message")
                }

                PlainTextArea {
                    id: input

                    objectName: "composerInput"
                    placeholderText: root.modelLoaded ? qsTr("Send a message (Enter sends, Shift+Enter for a new line)")
                                                      : qsTr("Load a model to start chatting")
                    Accessible.name: qsTr("Message")
                    Accessible.role: Accessible.EditableText

                    Keys.onReturnPressed: event => {
                        if (event.modifiers & Qt.ShiftModifier) {
                            event.accepted = false // a new line
                            return
                        }
                        root.submit()
                    }
                    Keys.onEnterPressed: event => root.submit()
                    Keys.onEscapePressed: root.chat.stop()
                    onTextChanged: root.triedToSend = false
                }
            }

            Button {
                objectName: "sendButton"
                visible: !root.chat.generating
                text: qsTr("Send")
                highlighted: true
                enabled: root.chat.canSend && input.text.trim().length > 0
                // Disabled looks disabled (the window's palette greys it too).
                opacity: enabled ? 1 : 0.45
                Accessible.name: qsTr("Send message")
                // Qt 6.4 tells a screen reader nothing of a control's enabled
                // state: the description says when and why it cannot send.
                Accessible.description: root.blockedReason.length > 0 ? root.blockedReason
                    : !enabled ? qsTr("Type a message to send.") : ""
                onClicked: root.submit()
            }
            Button {
                objectName: "stopButton"
                visible: root.chat.generating
                text: qsTr("Stop")
                Accessible.name: qsTr("Stop the reply")
                ToolTip.visible: hovered
                ToolTip.text: qsTr("Stop (Esc)")
                onClicked: root.chat.stop()
            }
        }

        Label {
            objectName: "composerHint"
            Layout.fillWidth: true
            visible: root.blockedReason.length > 0
                     && (root.triedToSend || root.replyElsewhere || input.text.trim().length > 0)
            text: root.blockedReason
            wrapMode: Text.Wrap
            font.pixelSize: 12
            color: root.triedToSend ? Theme.warning : Theme.mutedText
            Accessible.role: Accessible.AlertMessage
            Accessible.name: text
        }
    }
}
