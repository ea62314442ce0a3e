import QtQuick
import QtQuick.Controls
import QtQuick.Dialogs
import QtQuick.Layouts
import Hearth

// Documents: collections of the user's files and folders, which of them
// this chat searches, indexing progress (pause, cancel), and the files that
// could not be read with the reason. Adding a folder indexes it on its own
// thread; chatting goes on meanwhile.
Popup {
    id: root

    required property DocumentsController documents

    // What Qt's own file dialog needs besides QtQuick.Dialogs (as the model picker).
    property list<string> dialogModules: ["QtQuick.Dialogs", "Qt.labs.folderlistmodel"]
    // The collection a file or folder dialog adds to.
    property double targetCollection: 0

    // Asks for a folder (or files) to add to `collection` (0: a new one):
    // Qt's dialog, or the path dialog where its QML modules are missing.
    function ask(collection, folder) {
        root.targetCollection = collection
        const missing = QmlModules.firstMissing(root.dialogModules)
        if (missing.length > 0)
            pathDialog.ask(missing, folder)
        else if (folder)
            folderDialog.open()
        else
            filesDialog.open()
    }

    // A collection to add to: the one given, else a new "Documents" one.
    function collectionFor(id) {
        if (id > 0)
            return id
        let name = qsTr("Documents")
        let n = 1
        const taken = root.documents.collections.map(c => c.name)
        while (taken.indexOf(name) >= 0)
            name = qsTr("Documents %1").arg(++n)
        return root.documents.createCollection(name)
    }

    function confirmRemove(collection, name) {
        removeDialog.collection = collection
        removeDialog.name = name
        removeDialog.open()
    }

    function addPath(path) {
        const id = root.collectionFor(root.targetCollection)
        if (id > 0)
            root.documents.addPath(id, path)
    }

    objectName: "documentsPanel"
    modal: true
    focus: true
    padding: 16
    background: Rectangle {
        color: Theme.surface
        radius: Theme.radius
        border.color: Theme.border
    }
    onOpened: root.documents.refresh()
    Component.onCompleted: Accessibility.nameDialog(root, qsTr("Documents"))

    ColumnLayout {
        anchors.fill: parent
        spacing: 10

        RowLayout {
            Layout.fillWidth: true

            Label {
                text: qsTr("Documents")
                font.pixelSize: 18
                font.bold: true
                Layout.fillWidth: true
                Accessible.role: Accessible.Heading
                Accessible.name: text
            }
            Button {
                objectName: "addFolderButton"
                text: qsTr("Add folder…")
                enabled: root.documents.embeddingModelFound
                Accessible.name: qsTr("Add a folder of documents")
                onClicked: root.ask(0, true)
            }
            Button {
                objectName: "addFilesButton"
                text: qsTr("Add files…")
                enabled: root.documents.embeddingModelFound
                Accessible.name: qsTr("Add document files")
                onClicked: root.ask(0, false)
            }
            ToolButton {
                objectName: "closeDocumentsButton"
                text: "✕"
                Accessible.name: qsTr("Close")
                onClicked: root.close()
            }
        }

        Label {
            Layout.fillWidth: true
            text: qsTr("Hearth reads your files on this computer and answers from them, citing file and page. Tick the collections this chat should search.")
            wrapMode: Text.Wrap
            color: Theme.mutedText
        }

        Banner {
            objectName: "embeddingModelMissing"
            Layout.fillWidth: true
            tone: Theme.warning
            text: root.documents.embeddingModelFound
                  ? ""
                  : qsTr("The embedding model is missing (%1), so documents cannot be indexed or searched. scripts/convert-models makes it from the all-MiniLM-L6-v2 download.")
                    .arg(root.documents.embeddingModel)
        }
        Banner {
            objectName: "documentsError"
            Layout.fillWidth: true
            text: root.documents.error
            onDismissed: root.documents.clearError()
        }

        // Indexing: progress, the file being read, pause and cancel.
        RowLayout {
            objectName: "indexingRow"
            Layout.fillWidth: true
            visible: root.documents.indexing
            spacing: 8

            ColumnLayout {
                Layout.fillWidth: true
                spacing: 2

                Label {
                    objectName: "indexingText"
                    Layout.fillWidth: true
                    text: root.documents.progressText
                    elide: Text.ElideRight
                }
                Meter {
                    objectName: "indexingProgress"
                    Layout.fillWidth: true
                    value: root.documents.progress
                    Accessible.name: qsTr("Indexing")
                    Accessible.description: root.documents.progressText
                }
                Label {
                    Layout.fillWidth: true
                    text: root.documents.currentFile
                    elide: Text.ElideMiddle
                    font.pixelSize: 11
                    color: Theme.mutedText
                }
            }
            Button {
                objectName: "pauseIndexingButton"
                text: root.documents.paused ? qsTr("Resume") : qsTr("Pause")
                Accessible.name: root.documents.paused ? qsTr("Resume indexing") : qsTr("Pause indexing")
                onClicked: root.documents.paused = !root.documents.paused
            }
            Button {
                objectName: "cancelIndexingButton"
                text: qsTr("Cancel")
                Accessible.name: qsTr("Cancel indexing")
                onClicked: root.documents.cancel()
            }
        }
        Label {
            objectName: "indexReport"
            Layout.fillWidth: true
            visible: !root.documents.indexing && root.documents.report.length > 0
            text: qsTr("Last run: %1").arg(root.documents.report)
            color: Theme.mutedText
            font.pixelSize: 12
        }

        Label {
            visible: root.documents.collections.length === 0
            Layout.fillWidth: true
            Layout.topMargin: 20
            horizontalAlignment: Text.AlignHCenter
            text: qsTr("No documents yet. Add a folder or files: PDF, Word (DOCX), OpenDocument (ODT), Markdown, HTML, text and code.")
            wrapMode: Text.Wrap
            color: Theme.mutedText
        }

        ListView {
            id: list

            // What the cards need from outside (a delegate reaches its view).
            readonly property DocumentsController documents: root.documents
            readonly property bool canAdd: root.documents.embeddingModelFound

            objectName: "collectionList"
            Layout.fillWidth: true
            Layout.fillHeight: true
            clip: true
            spacing: 8
            model: root.documents.collections
            activeFocusOnTab: false
            ScrollBar.vertical: ScrollBar {}

            delegate: Rectangle {
                id: card

                required property var modelData
                property bool showProblems: false
                // The list view (a var: its own properties are not on ItemView's type).
                readonly property var view: ListView.view
                readonly property var problemList: card.showProblems ? card.view.documents.problems(card.modelData.id)
                                                                     : []

                objectName: "collection_" + card.modelData.name
                width: ListView.view.width
                implicitHeight: cardColumn.implicitHeight + 16
                radius: Theme.radius
                color: Theme.sidebar
                border.color: Theme.border

                ColumnLayout {
                    id: cardColumn

                    x: 8
                    y: 8
                    width: parent.width - 16
                    spacing: 4

                    RowLayout {
                        Layout.fillWidth: true

                        CheckBox {
                            objectName: "useCollection"
                            checked: card.modelData.used
                            text: card.modelData.name
                            font.bold: true
                            Layout.fillWidth: true
                            Accessible.name: qsTr("Search “%1” in this chat").arg(card.modelData.name)
                            onToggled: () => root.documents.setUsed(card.modelData.id, checked)
                        }
                        ToolButton {
                            objectName: "collectionAddFolder"
                            text: qsTr("Add folder…")
                            font.pixelSize: 12
                            enabled: card.view.canAdd
                            Accessible.name: qsTr("Add a folder to “%1”").arg(card.modelData.name)
                            onClicked: () => root.ask(card.modelData.id, true)
                        }
                        ToolButton {
                            objectName: "collectionAddFiles"
                            text: qsTr("Add files…")
                            font.pixelSize: 12
                            enabled: card.view.canAdd
                            Accessible.name: qsTr("Add files to “%1”").arg(card.modelData.name)
                            onClicked: () => root.ask(card.modelData.id, false)
                        }
                        ToolButton {
                            objectName: "collectionReindex"
                            text: qsTr("Re-index")
                            font.pixelSize: 12
                            enabled: card.view.canAdd
                            Accessible.name: qsTr("Index “%1” again").arg(card.modelData.name)
                            onClicked: () => root.documents.reindex(card.modelData.id)
                        }
                        ToolButton {
                            objectName: "collectionRemove"
                            text: qsTr("Remove")
                            font.pixelSize: 12
                            Accessible.name: qsTr("Remove the collection “%1”").arg(card.modelData.name)
                            onClicked: () => root.confirmRemove(card.modelData.id, card.modelData.name)
                        }
                    }
                    Label {
                        objectName: "collectionSummary"
                        Layout.fillWidth: true
                        text: qsTr("%n document(s) indexed, %1 passages", "", card.modelData.indexed)
                              .arg(card.modelData.chunks)
                        color: Theme.mutedText
                        font.pixelSize: 12
                    }
                    Repeater {
                        model: card.modelData.sources
                        delegate: RowLayout {
                            id: sourceRow

                            required property string modelData

                            Layout.fillWidth: true
                            Label {
                                Layout.fillWidth: true
                                text: sourceRow.modelData
                                elide: Text.ElideMiddle
                                font.pixelSize: 12
                            }
                            ToolButton {
                                text: "✕"
                                font.pixelSize: 11
                                Accessible.name: qsTr("Stop using %1").arg(sourceRow.modelData)
                                onClicked: () => root.documents.removeSource(card.modelData.id, sourceRow.modelData)
                            }
                        }
                    }
                    // Files not read, each with the reason: never silently dropped.
                    ToolButton {
                        objectName: "problemsButton"
                        visible: card.modelData.problems > 0
                        text: card.showProblems ? qsTr("Hide the %n file(s) not read", "", card.modelData.problems)
                                                : qsTr("%n file(s) not read: show why", "", card.modelData.problems)
                        font.pixelSize: 12
                        Accessible.name: text
                        onClicked: card.showProblems = !card.showProblems
                    }
                    Repeater {
                        model: card.problemList
                        delegate: Label {
                            required property var modelData

                            objectName: "problemLabel"
                            Layout.fillWidth: true
                            text: "%1 — %2: %3".arg(modelData.path).arg(modelData.status).arg(modelData.reason)
                            wrapMode: Text.Wrap
                            font.pixelSize: 11
                            color: modelData.status === "failed" ? Theme.danger : Theme.mutedText
                        }
                    }
                }
            }
        }
    }

    Dialog {
        id: removeDialog

        property double collection: 0
        property string name

        objectName: "removeCollectionDialog"
        parent: Overlay.overlay
        anchors.centerIn: parent
        modal: true
        title: qsTr("Remove “%1”?").arg(removeDialog.name)
        onAccepted: root.documents.removeCollection(removeDialog.collection)
        // Says what it does, not "OK".
        Component.onCompleted: {
            removeDialog.standardButton(Dialog.Ok).text = qsTr("Remove")
            Accessibility.nameDialog(removeDialog, removeDialog.title)
        }

        Label {
            text: qsTr("Hearth forgets the collection and its index. Your files stay where they are.")
            wrapMode: Text.Wrap
            width: Math.min(420, removeDialog.parent ? removeDialog.parent.width - 80 : 420)
        }
        standardButtons: Dialog.Ok | Dialog.Cancel
    }

    FolderDialog {
        id: folderDialog

        objectName: "documentsFolderDialog"
        title: qsTr("Add a folder of documents")
        onAccepted: root.addPath(selectedFolder)
    }

    FileDialog {
        id: filesDialog

        objectName: "documentsFileDialog"
        title: qsTr("Add documents")
        fileMode: FileDialog.OpenFiles
        nameFilters: [qsTr("Documents (*.pdf *.docx *.odt *.md *.markdown *.html *.htm *.txt)"), qsTr("All files (*)")]
        onAccepted: {
            const id = root.collectionFor(root.targetCollection)
            if (id > 0)
                for (const f of selectedFiles)
                    root.documents.addPath(id, f)
        }
    }

    PathDialog {
        id: pathDialog

        parent: Overlay.overlay
        anchors.centerIn: parent
        width: Math.min(520, parent ? parent.width - 40 : 520)
        folderTitle: qsTr("Add a folder of documents")
        fileTitle: qsTr("Add a document")
        folderPlaceholder: qsTr("/path/to/documents")
        filePlaceholder: qsTr("/path/to/report.pdf")
        fileName: qsTr("Document path")
        onPathAccepted: path => root.addPath(path)
    }
}
