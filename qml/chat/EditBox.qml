import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Hearth

// Editing a sent message before resending it.
ColumnLayout {
    id: root

    property alias text: area.text
    signal submitted(string text)
    signal cancelled()

    function focusInput() {
        area.forceActiveFocus()
    }

    spacing: 6

    PlainTextArea {
        id: area

        objectName: "editArea"
        Layout.fillWidth: true
        Accessible.name: qsTr("Edited message")
        Keys.onEscapePressed: root.cancelled()
    }
    RowLayout {
        Layout.alignment: Qt.AlignRight
        Button {
            text: qsTr("Cancel")
            Accessible.name: qsTr("Cancel editing")
            onClicked: root.cancelled()
        }
        Button {
            objectName: "resendButton"
            text: qsTr("Send")
            highlighted: true
            enabled: area.text.trim().length > 0
            Accessible.name: qsTr("Send the edited message")
            onClicked: root.submitted(area.text)
        }
    }
}
