import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Hearth

Pane {
    id: root

    padding: 0

    ColumnLayout {
        anchors.fill: parent
        spacing: 0

        ListView {
            id: messages

            Layout.fillWidth: true
            Layout.fillHeight: true
            clip: true
            model: 0

            ColumnLayout {
                anchors.centerIn: parent
                visible: messages.count === 0
                spacing: 6

                Label {
                    objectName: "welcomeLabel"
                    Layout.alignment: Qt.AlignHCenter
                    text: qsTr("Welcome to %1").arg(AppInfo.name)
                    font.pixelSize: 26
                }
                Label {
                    Layout.alignment: Qt.AlignHCenter
                    text: qsTr("Drop a GGUF model file on this window to start chatting.")
                    opacity: 0.7
                }
            }
        }

        Composer {
            Layout.fillWidth: true
        }
    }
}
