import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Hearth

// A message across the top of a view (an error to read and dismiss, or a
// notice in another tone).
Rectangle {
    id: root

    property string text
    property color tone: Theme.danger
    signal dismissed()

    visible: root.text.length > 0
    implicitHeight: visible ? row.implicitHeight + 16 : 0
    color: Qt.rgba(root.tone.r, root.tone.g, root.tone.b, 0.12)
    Accessible.role: Accessible.AlertMessage
    Accessible.name: root.text

    RowLayout {
        id: row

        anchors.fill: parent
        anchors.margins: 8
        spacing: 8

        Label {
            objectName: "bannerText"
            Layout.fillWidth: true
            text: root.text
            wrapMode: Text.Wrap
            color: root.tone
        }
        ToolButton {
            objectName: "bannerDismiss"
            text: "✕"
            Accessible.name: qsTr("Dismiss")
            onClicked: root.dismissed()
        }
    }
}
