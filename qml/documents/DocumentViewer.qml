import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Hearth

// A cited passage in its document, inside Hearth: a PDF at the cited page
// with the passage highlighted (QtPdf), other formats as their indexed
// text scrolled to the passage, which is selected. "Open in its app" hands
// the file to the system.
Popup {
    id: root

    required property DocumentsController documents
    // The citation: {n, label, path, page, line, text}.
    property var source: null
    readonly property bool isPdf: root.source !== null && /\.pdf$/i.test(root.source.path)
    readonly property bool pdfModule: QmlModules.firstMissing(["QtQuick.Pdf"]).length === 0
    // The loaded PdfPassageView (a var: its type is known only where QtQuick.Pdf is).
    readonly property var pdfPage: pdfLoader.item

    function show(citation) {
        root.source = citation
        root.open()
        if (!root.isPdf || !root.pdfModule)
            textView.showPassage()
    }

    objectName: "documentViewer"
    modal: true
    focus: true
    padding: 12
    background: Rectangle {
        color: Theme.surface
        radius: Theme.radius
        border.color: Theme.border
    }
    Component.onCompleted: Accessibility.nameDialog(root, qsTr("Source"))

    ColumnLayout {
        anchors.fill: parent
        spacing: 8

        RowLayout {
            Layout.fillWidth: true

            Label {
                objectName: "viewerTitle"
                Layout.fillWidth: true
                text: root.source ? "[%1] %2".arg(root.source.n).arg(root.source.label) : ""
                font.bold: true
                elide: Text.ElideMiddle
                Accessible.role: Accessible.Heading
                Accessible.name: text
            }
            Label {
                objectName: "viewerPage"
                visible: root.pdfPage && root.pdfPage.ready
                text: root.pdfPage ? qsTr("Page %1 of %2").arg(root.pdfPage.currentPage).arg(root.pdfPage.pageCount) : ""
                color: Theme.mutedText
            }
            Button {
                objectName: "openExternallyButton"
                text: qsTr("Open in its app")
                Accessible.name: qsTr("Open the document in its own application")
                onClicked: Qt.openUrlExternally(root.documents.fileUrl(root.source.path))
            }
            ToolButton {
                objectName: "closeViewerButton"
                text: "✕"
                Accessible.name: qsTr("Close")
                onClicked: root.close()
            }
        }

        Label {
            objectName: "viewerNotice"
            Layout.fillWidth: true
            visible: text.length > 0
            wrapMode: Text.Wrap
            color: Theme.warning
            text: root.isPdf && !root.pdfModule
                  ? qsTr("The PDF view needs the QML module QtQuick.Pdf (on Debian and Ubuntu: the package %1); the indexed text is shown instead.")
                    .arg(QmlModules.debianPackage("QtQuick.Pdf"))
                  : root.pdfPage && root.pdfPage.failed
                    ? qsTr("The PDF could not be opened (moved, changed or damaged); the indexed text is shown instead.")
                    : !root.isPdf && root.visible && !textView.found
                      ? qsTr("The passage is no longer in the indexed text (the file changed?).")
                      : ""
        }

        Loader {
            id: pdfLoader

            objectName: "pdfLoader"
            Layout.fillWidth: true
            Layout.fillHeight: true
            active: root.visible && root.isPdf && root.pdfModule
            visible: active && root.pdfPage && !root.pdfPage.failed
            source: "PdfPassageView.qml"
            onLoaded: {
                root.pdfPage.source = root.documents.fileUrl(root.source.path)
                root.pdfPage.page = Math.max(1, root.source.page)
                root.pdfPage.passage = root.source.text
            }
            onVisibleChanged: if (!visible && root.visible && active) textView.showPassage()
        }

        ScrollView {
            id: textScroll

            Layout.fillWidth: true
            Layout.fillHeight: true
            visible: !pdfLoader.visible
            clip: true

            TextArea {
                id: textView

                property bool found: true

                function showPassage() {
                    if (!root.source)
                        return
                    const d = root.documents.documentText(root.source.path, root.source.text)
                    textView.text = d.text
                    textView.found = d.found
                    if (d.found) {
                        textView.select(d.start, d.start + d.length)
                        Qt.callLater(() => {
                            const r = textView.positionToRectangle(d.start)
                            textScroll.contentItem.contentY = Math.max(0, r.y - 40)
                        })
                    }
                }

                objectName: "documentText"
                readOnly: true
                selectByMouse: true
                wrapMode: TextArea.Wrap
                textFormat: TextEdit.PlainText
                selectionColor: Theme.accent
                selectedTextColor: Theme.accentText
                Accessible.name: root.source ? root.source.label : ""
            }
        }
    }
}
