import QtQuick
import QtQuick.Controls
import QtQuick.Layouts

Pane {
    id: root

    RowLayout {
        anchors.fill: parent
        spacing: 8

        ScrollView {
            Layout.fillWidth: true
            Layout.preferredHeight: Math.min(140, Math.max(40, input.implicitHeight))

            TextArea {
                id: input

                placeholderText: qsTr("Send a message")
                wrapMode: TextArea.Wrap
                Accessible.name: qsTr("Message")
            }
        }

        Button {
            objectName: "sendButton"
            text: qsTr("Send")
            enabled: false
            Accessible.name: qsTr("Send message")
        }
    }
}
