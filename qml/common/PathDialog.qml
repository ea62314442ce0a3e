import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Hearth

// Asks for a path by typing it, where Qt's file dialog cannot open (a QML
// module it needs is missing): says which module and package, so the user
// knows why and how to get the full dialog.
Dialog {
    id: root

    // The module that is missing, e.g. Qt.labs.folderlistmodel.
    property string missingModule
    // What is asked for: a file or a folder.
    property bool folder: false
    // What the dialog says for each (the model picker's by default).
    property string folderTitle: qsTr("Add a models folder")
    property string fileTitle: qsTr("Open a model")
    property string folderPlaceholder: qsTr("/path/to/models")
    property string filePlaceholder: qsTr("/path/to/model.gguf")
    property string fileName: qsTr("Model file path")

    signal pathAccepted(string path)

    function ask(missing, wantFolder) {
        root.missingModule = missing
        root.folder = wantFolder
        pathField.text = ""
        root.open()
        pathField.forceActiveFocus()
    }

    objectName: "pathDialog"
    modal: true
    focus: true
    title: root.folder ? root.folderTitle : root.fileTitle
    standardButtons: Dialog.Cancel
    onAccepted: root.pathAccepted(pathField.text.trim())

    ColumnLayout {
        width: root.availableWidth
        spacing: 10

        Label {
            objectName: "pathDialogReason"
            Layout.fillWidth: true
            wrapMode: Text.Wrap
            text: qsTr("The file dialog cannot open: the QML module %1 is not installed (on Debian and Ubuntu: the package %2). Type the path instead.")
                  .arg(root.missingModule).arg(QmlModules.debianPackage(root.missingModule))
        }
        TextField {
            id: pathField

            objectName: "pathField"
            Layout.fillWidth: true
            placeholderText: root.folder ? root.folderPlaceholder : root.filePlaceholder
            Accessible.name: root.folder ? qsTr("Folder path") : root.fileName
            onAccepted: if (text.trim().length > 0) root.accept()
        }
        Button {
            objectName: "pathOpenButton"
            Layout.alignment: Qt.AlignRight
            text: root.folder ? qsTr("Add folder") : qsTr("Open")
            highlighted: true
            enabled: pathField.text.trim().length > 0
            Accessible.name: text
            onClicked: root.accept()
        }
    }
}
