import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Hearth

Pane {
    id: root

    padding: 12

    ColumnLayout {
        anchors.fill: parent
        spacing: 8

        Label {
            text: AppInfo.name
            font.pixelSize: 22
            font.bold: true
            Accessible.role: Accessible.Heading
        }

        Label {
            text: qsTr("Version %1").arg(AppInfo.version)
            opacity: 0.7
        }

        Button {
            objectName: "newChatButton"
            Layout.fillWidth: true
            text: qsTr("New chat")
            Accessible.name: qsTr("New chat")
        }

        TextField {
            Layout.fillWidth: true
            placeholderText: qsTr("Search conversations")
            Accessible.name: qsTr("Search conversations")
        }

        ListView {
            id: conversations

            Layout.fillWidth: true
            Layout.fillHeight: true
            clip: true
            model: 0

            Label {
                objectName: "noConversationsLabel"
                anchors.centerIn: parent
                visible: conversations.count === 0
                text: qsTr("No conversations yet")
                opacity: 0.6
            }
        }
    }
}
