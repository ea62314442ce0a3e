import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Hearth

// What this Hearth is: icon, name, version, what it runs on, license and
// homepage; opened with F1 or from the name in the sidebar.
Popup {
    id: root

    objectName: "aboutDialog"
    Component.onCompleted: Accessibility.nameDialog(root, qsTr("About %1").arg(AppInfo.name))
    modal: true
    focus: true
    padding: 24
    background: Rectangle {
        color: Theme.surface
        radius: Theme.radius
        border.color: Theme.border
    }

    ColumnLayout {
        anchors.fill: parent
        spacing: 10

        Image {
            Layout.alignment: Qt.AlignHCenter
            source: "qrc:/hearth/icons/hearth.svg"
            sourceSize.width: 96
            sourceSize.height: 96
            Accessible.ignored: true
        }
        Label {
            Layout.alignment: Qt.AlignHCenter
            text: AppInfo.name
            font.pixelSize: 24
            font.bold: true
            Accessible.role: Accessible.Heading
            Accessible.name: text
        }
        Label {
            objectName: "aboutVersion"
            Layout.alignment: Qt.AlignHCenter
            text: qsTr("Version %1").arg(AppInfo.version)
        }
        Label {
            Layout.fillWidth: true
            horizontalAlignment: Text.AlignHCenter
            wrapMode: Text.WordWrap
            text: qsTr("Chat with language models that run on your own computer")
        }
        Label {
            Layout.fillWidth: true
            horizontalAlignment: Text.AlignHCenter
            wrapMode: Text.WordWrap
            color: Theme.mutedText
            text: qsTr("Qt %1 · CPU: %2").arg(AppInfo.qtVersion).arg(AppInfo.cpuFeatures)
        }
        Label {
            Layout.alignment: Qt.AlignHCenter
            color: Theme.mutedText
            text: qsTr("MIT License")
        }
        Label {
            Layout.alignment: Qt.AlignHCenter
            textFormat: Text.StyledText
            text: "<a href=\"%1\">%1</a>".arg(AppInfo.homepage)
            onLinkActivated: link => Qt.openUrlExternally(link)
            Accessible.role: Accessible.Link
            Accessible.name: AppInfo.homepage
            Accessible.onPressAction: Qt.openUrlExternally(AppInfo.homepage)
        }
        Button {
            Layout.alignment: Qt.AlignHCenter
            text: qsTr("Close")
            onClicked: root.close()
        }
    }
}
