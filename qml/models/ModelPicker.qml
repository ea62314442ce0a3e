import QtQuick
import QtQuick.Controls
import QtQuick.Dialogs
import QtQuick.Layouts
import Hearth

// The models found in the models folders (headers only, cached) and files
// opened before, with what each is and whether it fits; open another file
// or add a folder; quantize one to another type (QuantizeDialog).
Popup {
    id: root

    required property ModelLibrary library
    required property ModelLoader loader

    // What Qt's own file dialog (used where the platform has no native
    // one) needs besides QtQuick.Dialogs; without it, opening one crashes.
    property list<string> dialogModules: ["QtQuick.Dialogs", "Qt.labs.folderlistmodel"]
    // "Get models…": the window opens the download page.
    signal getModelsRequested()

    function openFile() {
        const missing = QmlModules.firstMissing(root.dialogModules)
        if (missing.length > 0)
            pathDialog.ask(missing, false)
        else
            fileDialog.open()
    }

    function addFolder() {
        const missing = QmlModules.firstMissing(root.dialogModules)
        if (missing.length > 0)
            pathDialog.ask(missing, true)
        else
            folderDialog.open()
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
    Component.onCompleted: Accessibility.nameDialog(root, qsTr("Models"))

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
                onClicked: root.openFile()
            }
            Button {
                objectName: "addFolderButton"
                text: qsTr("Add folder…")
                Accessible.name: qsTr("Add a models folder")
                onClicked: root.addFolder()
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
            objectName: "folderChips"
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
                    // A first click asks; a second within a few seconds removes.
                    property bool confirming: false

                    objectName: "folderChip:" + folderButton.modelData
                    flat: true
                    font.pixelSize: 12
                    text: folderButton.confirming ? qsTr("Remove %1? Click again").arg(folderButton.modelData)
                                                  : folderButton.modelData + "  ✕"
                    Accessible.name: folderButton.confirming ? text
                                                             : qsTr("Remove folder %1").arg(folderButton.modelData)
                    onClicked: () => {
                        if (!folderButton.confirming) {
                            folderButton.confirming = true
                            confirmTime.restart()
                            return
                        }
                        confirmTime.stop()
                        folderButton.confirming = false
                        root.library.removeFolder(folderButton.modelData)
                    }

                    Timer {
                        id: confirmTime

                        interval: 4000
                        onTriggered: folderButton.confirming = false
                    }
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
            ScrollBar.vertical: ScrollBar {
                Accessible.name: qsTr("Scroll the models")
            }
            Accessible.name: qsTr("Models")
            Accessible.role: Accessible.List

            delegate: ModelDelegate {
                width: ListView.view.width
                onLoadRequested: path => {
                    root.library.load(path)
                    root.close()
                }
                onQuantizeRequested: (path, name) => quantizeDialog.ask(path, name)
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

        objectName: "fileDialog"
        title: qsTr("Open a model")
        nameFilters: [qsTr("GGUF models (*.gguf)"), qsTr("All files (*)")]
        onAccepted: {
            root.library.openFile(selectedFile)
            root.close()
        }
    }

    FolderDialog {
        id: folderDialog

        objectName: "folderDialog"
        title: qsTr("Add a models folder")
        onAccepted: root.library.addFolder(selectedFolder)
    }

    QuantizeDialog {
        id: quantizeDialog

        parent: Overlay.overlay
        anchors.centerIn: parent
        library: root.library
    }

    PathDialog {
        id: pathDialog

        parent: Overlay.overlay
        anchors.centerIn: parent
        width: Math.min(520, parent ? parent.width - 40 : 520)
        onPathAccepted: path => {
            if (pathDialog.folder) {
                root.library.addFolder(path)
            } else {
                root.library.openPath(path)
                root.close()
            }
        }
    }
}
