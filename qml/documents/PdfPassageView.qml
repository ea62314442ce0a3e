import QtQuick
import QtQuick.Pdf

// A PDF at a cited page with the passage's opening words highlighted
// (QtPdf's multi-page view and its search). Loaded by DocumentViewer only
// where the QtQuick.Pdf module is installed.
Item {
    id: root

    property url source
    property int page: 1 // 1-based, as cited
    property string passage
    readonly property bool ready: pdf.status === PdfDocument.Ready
    readonly property bool failed: pdf.status === PdfDocument.Error
    readonly property int currentPage: view.currentPage + 1
    readonly property int pageCount: pdf.pageCount
    readonly property int highlights: view.searchModel.count

    // The first words of the passage's first line: within one line of the
    // page, where QtPdf's search finds them.
    function probe(text) {
        const line = text.split("\n").map(l => l.trim()).find(l => l.length > 0) || ""
        return line.split(/\s+/).slice(0, 8).join(" ")
    }

    function jump() {
        if (!root.ready)
            return
        view.goToPage(Math.max(0, Math.min(root.page - 1, pdf.pageCount - 1)))
        view.searchString = root.probe(root.passage)
    }

    onPageChanged: root.jump()
    onPassageChanged: root.jump()

    PdfDocument {
        id: pdf

        source: root.source
        onStatusChanged: if (status === PdfDocument.Ready) root.jump()
    }
    PdfMultiPageView {
        id: view

        objectName: "pdfView"
        anchors.fill: parent
        document: pdf
        Accessible.role: Accessible.Document
        Accessible.name: qsTr("Page %1 of %2").arg(root.currentPage).arg(root.pageCount)
        // The search jumps to its first hit; the cited page is where the
        // passage is, so go back there if the hit was elsewhere.
        searchModel.onCountChanged: {
            if (view.searchModel.count > 0 && view.currentPage !== root.page - 1)
                view.goToPage(root.page - 1)
        }
    }
}
