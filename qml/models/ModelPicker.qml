import QtQuick
import QtQuick.Controls
import QtQuick.Dialogs
import QtQuick.Layouts
import Hearth

// The models found in the models folders (headers only, cached) and files
// opened before, with what each is and whether it fits; open another file
// or add a folder.
Popup {
    id: root

    required property ModelLibrary library
    required property ModelLoader loader

    // "Get models…": the window opens the download page.
    signal getModelsRequested()

    function openFile() {
        fileDialog.open()
    }

    objectName: "modelPicker"
    modal: true
    focus: true
    padding: 16
    background: Rectangle {
        color: Theme.surface
        radius: Theme.radius
        border.color: Theme.border
    }
    onOpened: root.library.rescan()

    ColumnLayout {
        anchors.fill: parent
        spacing: 10

        RowLayout {
            Layout.fillWidth: true

            Label {
                Layout.fillWidth: true
                text: qsTr("Models")
                font.pixelSize: 20
                font.bold: true
                Accessible.role: Accessible.Heading
                Accessible.name: text
            }
            BusyIndicator {
                visible: root.library.scanning
                running: root.library.scanning
                implicitWidth: 24
                implicitHeight: 24
                Accessible.name: qsTr("Looking for models")
            }
            Button {
                objectName: "getModelsButton"
                text: qsTr("Get models…")
                Accessible.name: qsTr("Find and download models from Hugging Face")
                onClicked: {
                    root.getModelsRequested()
                    root.close()
                }
            }
            Button {
                objectName: "openFileButton"
                text: qsTr("Open file…")
                Accessible.name: qsTr("Open a model file")
                onClicked: fileDialog.open()
            }
            Button {
                objectName: "addFolderButton"
                text: qsTr("Add folder…")
                Accessible.name: qsTr("Add a models folder")
                onClicked: folderDialog.open()
            }
            ToolButton {
                text: "✕"
                Accessible.name: qsTr("Close")
                onClicked: root.close()
            }
        }

        Banner {
            Layout.fillWidth: true
            text: root.library.error
            onDismissed: root.library.clearError()
        }

        Flow {
            Layout.fillWidth: true
            spacing: 6

            Label {
                text: qsTr("Folders:")
                color: Theme.mutedText
            }
            Repeater {
                model: root.library.folders
                delegate: Button {
                    id: folderButton

                    required property string modelData

                    flat: true
                    font.pixelSize: 12
                    text: folderButton.modelData + "  ✕"
                    Accessible.name: qsTr("Remove folder %1").arg(folderButton.modelData)
                    onClicked: () => root.library.removeFolder(folderButton.modelData)
                }
            }
        }

        ListView {
            id: list

            objectName: "modelList"
            Layout.fillWidth: true
            Layout.fillHeight: true
            clip: true
            spacing: 6
            model: root.library.models
            ScrollBar.vertical: ScrollBar {}
            Accessible.name: qsTr("Models")
            Accessible.role: Accessible.List

            delegate: ModelDelegate {
                width: ListView.view.width
                onLoadRequested: path => {
                    root.library.load(path)
                    root.close()
                }
            }

            Label {
                anchors.centerIn: parent
                width: parent.width - 40
                visible: list.count === 0 && !root.library.scanning
                horizontalAlignment: Text.AlignHCenter
                wrapMode: Text.Wrap
                color: Theme.mutedText
                text: qsTr("No models found. Open a .gguf file, drop one on the window, or add a folder.")
            }
        }
    }

    FileDialog {
        id: fileDialog

        title: qsTr("Open a model")
        nameFilters: [qsTr("GGUF models (*.gguf)"), qsTr("All files (*)")]
        onAccepted: {
            root.library.openFile(selectedFile)
            root.close()
        }
    }

    FolderDialog {
        id: folderDialog

        title: qsTr("Add a models folder")
        onAccepted: root.library.addFolder(selectedFolder)
    }
}
