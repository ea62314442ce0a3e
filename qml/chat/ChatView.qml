import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Hearth

// The conversation: header (model, load progress, settings), messages,
// gauges, and the message box.
Pane {
    id: root

    required property AppSession session

    property bool sidebarShown: true

    signal modelPickerRequested()
    signal settingsRequested()
    signal sidebarToggleRequested()
    signal documentsRequested()
    signal sourceOpened(var source)

    function focusInput() {
        composer.focusInput()
    }

    padding: 0
    background: Rectangle {
        color: Theme.surface
    }

    ColumnLayout {
        anchors.fill: parent
        spacing: 0

        ChatHeader {
            Layout.fillWidth: true
            loader: root.session.loader
            documents: root.session.documents
            sidebarShown: root.sidebarShown
            onDocumentsRequested: root.documentsRequested()
            onModelPickerRequested: root.modelPickerRequested()
            onSettingsRequested: root.settingsRequested()
            onSidebarToggleRequested: root.sidebarToggleRequested()
        }

        Banner {
            objectName: "errorBanner"
            Layout.fillWidth: true
            text: root.session.library.error || root.session.loader.error || root.session.chat.error
            onDismissed: {
                root.session.library.clearError()
                root.session.chat.clearError()
            }
        }

        // What the model's load had to say (no chat template, so a built-in
        // one or plain continuation; layers not offloaded), in plain view
        // until dismissed for this model.
        Banner {
            id: modelNotice

            property string dismissedFor

            objectName: "modelNotice"
            Layout.fillWidth: true
            tone: Theme.warning
            text: root.session.loader.loaded && modelNotice.dismissedFor !== root.session.loader.modelPath
                  ? root.session.loader.warning : ""
            onDismissed: modelNotice.dismissedFor = root.session.loader.modelPath
        }

        ListView {
            id: messages

            // Follows the reply while the reader is at the bottom.
            property bool pinned: true

            objectName: "messageList"
            Layout.fillWidth: true
            Layout.fillHeight: true
            clip: true
            spacing: 4
            topMargin: 16
            bottomMargin: 16
            model: root.session.chat.messages
            boundsBehavior: Flickable.StopAtBounds
            ScrollBar.vertical: ScrollBar {
                Accessible.name: qsTr("Scroll the messages")
            }
            Accessible.name: qsTr("Messages")
            Accessible.role: Accessible.List

            delegate: MessageDelegate {
                width: ListView.view.width
                onCopyRequested: id => root.session.chat.copyMessage(id)
                onCopyCodeRequested: (id, fence) => root.session.chat.copyCode(id, fence)
                onRegenerateRequested: () => root.session.chat.regenerate()
                onEditSubmitted: (id, text) => root.session.chat.editAndResend(id, text)
                onAlternativeRequested: (id, step) => root.session.chat.showAlternative(id, step)
                onSourceOpened: source => root.sourceOpened(source)
            }

            onMovementEnded: pinned = atYEnd
            onContentHeightChanged: if (pinned) positionViewAtEnd()
            onHeightChanged: if (pinned) positionViewAtEnd()
            onCountChanged: {
                pinned = true
                toEnd.restart() // once the new delegates are laid out
            }

            Timer {
                id: toEnd

                interval: 0
                onTriggered: messages.positionViewAtEnd()
            }

            ColumnLayout {
                anchors.centerIn: parent
                width: Math.min(parent.width - 40, 520)
                visible: messages.count === 0
                spacing: 10

                Label {
                    objectName: "welcomeLabel"
                    Layout.alignment: Qt.AlignHCenter
                    text: qsTr("Welcome to %1").arg(AppInfo.name)
                    font.pixelSize: 26
                    Accessible.role: Accessible.Heading
                    Accessible.name: text
                }
                Label {
                    objectName: "welcomeHint"
                    Layout.fillWidth: true
                    horizontalAlignment: Text.AlignHCenter
                    wrapMode: Text.Wrap
                    color: Theme.mutedText
                    text: root.session.loader.loaded
                          ? qsTr("Ask %1 anything. Everything stays on this computer.").arg(root.session.loader.modelName)
                          : qsTr("Drop a GGUF model file on this window, or choose one, to start chatting.")
                }
                Button {
                    objectName: "chooseModelButton"
                    Layout.alignment: Qt.AlignHCenter
                    visible: !root.session.loader.loaded && !root.session.loader.busy
                    text: qsTr("Choose a model…")
                    Accessible.name: qsTr("Choose a model")
                    onClicked: root.modelPickerRequested()
                }
            }
        }

        GaugeBar {
            Layout.fillWidth: true
            gauges: root.session.gauges
            visible: root.session.loader.loaded
        }

        Composer {
            id: composer

            Layout.fillWidth: true
            chat: root.session.chat
            modelLoaded: root.session.loader.loaded
            modelLoading: root.session.loader.busy
        }
    }
}
