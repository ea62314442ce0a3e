import QtQuick
import QtQuick.Pdf
import Hearth

// A PDF at a cited page with the passage's opening words highlighted
// (QtPdf's multi-page view and its search). Loaded by DocumentViewer only
// where the QtQuick.Pdf module is installed. Not compiled by qmlcachegen
// (see app/lib/CMakeLists.txt).
Item {
    id: root

    property url source
    property int page: 1 // 1-based, as cited
    property string passage
    readonly property bool ready: pdf.status === PdfDocument.Ready
    readonly property bool failed: pdf.status === PdfDocument.Error
    readonly property int currentPage: view.currentPage + 1
    readonly property int pageCount: pdf.pageCount
    // Search hits drawn on the cited page (QtPdf 6.4's search model has no
    // count: its polygons there are counted when its results change).
    property int highlights: 0
    // Set once the view is at the cited page after the search's own jump.
    property bool settled: false

    // The first words of the passage's first line: within one line of the
    // page, where QtPdf's search finds them.
    function probe(text) {
        const line = text.split("\n").map(l => l.trim()).find(l => l.length > 0) || ""
        return line.split(/\s+/).slice(0, 8).join(" ")
    }

    // Once the document is open and the view laid out (a table view
    // positions nothing before it has a size): to the cited page, then the
    // search, which scrolls to the passage's first hit.
    function jump() {
        settle.restart()
    }

    onPageChanged: root.jump()
    onPassageChanged: root.jump()

    Timer {
        id: settle

        interval: 50
        onTriggered: {
            if (!root.ready)
                return
            if (view.width <= 0 || view.height <= 0) {
                settle.restart()
                return
            }
            root.settled = false
            view.goToLocation(Math.max(0, Math.min(root.page - 1, pdf.pageCount - 1)), Qt.point(0, 0), 0)
            view.searchString = root.probe(root.passage)
        }
    }

    PdfDocument {
        id: pdf

        source: root.source
        onStatusChanged: if (status === PdfDocument.Ready) root.jump()
    }
    // The pages stand out as paper on a grey desk.
    Rectangle {
        anchors.fill: parent
        color: Theme.sidebar
    }
    PdfMultiPageView {
        id: view

        objectName: "pdfView"
        anchors.fill: parent
        clip: true
        document: pdf
        Accessible.role: Accessible.Document
        Accessible.name: qsTr("Page %1 of %2").arg(root.currentPage).arg(root.pageCount)
    }
    // The search jumps to its first hit; the cited page is where the passage
    // is, so go back there if that hit was elsewhere (once: the user may
    // step through the hits afterwards).
    Connections {
        target: view.searchModel
        function countHits() {
            root.highlights = view.searchModel.boundingPolygonsOnPage(root.page - 1).length
        }
        function onModelReset() { countHits() }
        function onRowsInserted() { countHits() }
        function onRowsRemoved() { countHits() }
        function onCurrentResultChanged() {
            countHits()
            if (root.settled)
                return
            if (view.currentPage !== root.page - 1)
                view.goToLocation(root.page - 1, Qt.point(0, 0), 0)
            root.settled = true
        }
    }
}
