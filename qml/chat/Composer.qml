import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Hearth

// The message box: Enter sends, Shift+Enter starts a new line, Esc stops
// the reply. While a reply streams the Send button becomes Stop.
Pane {
    id: root

    required property ChatController chat
    required property bool modelLoaded

    function focusInput() {
        input.forceActiveFocus()
    }

    function submit() {
        if (root.chat.send(input.text))
            input.clear()
    }

    padding: 12
    background: Rectangle {
        color: Theme.surface
    }

    RowLayout {
        anchors.fill: parent
        spacing: 8

        ScrollView {
            Layout.fillWidth: true
            Layout.preferredHeight: Math.min(160, Math.max(44, input.implicitHeight))

            TextArea {
                id: input

                objectName: "composerInput"
                placeholderText: root.modelLoaded ? qsTr("Send a message (Enter sends, Shift+Enter for a new line)")
                                                  : qsTr("Load a model to start chatting")
                wrapMode: TextArea.Wrap
                Accessible.name: qsTr("Message")
                Accessible.role: Accessible.EditableText
                background: Rectangle {
                    radius: Theme.radius
                    color: Theme.sidebar
                    border.color: input.activeFocus ? Theme.accent : Theme.border
                }

                Keys.onReturnPressed: event => {
                    if (event.modifiers & Qt.ShiftModifier) {
                        event.accepted = false // a new line
                        return
                    }
                    root.submit()
                }
                Keys.onEnterPressed: event => root.submit()
                Keys.onEscapePressed: root.chat.stop()
            }
        }

        Button {
            objectName: "sendButton"
            visible: !root.chat.generating
            text: qsTr("Send")
            highlighted: true
            enabled: root.chat.canSend && input.text.trim().length > 0
            Accessible.name: qsTr("Send message")
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
}
