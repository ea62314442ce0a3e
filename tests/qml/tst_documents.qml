import QtQuick
import QtQuick.Controls
import QtTest
import Hearth
import HearthTest

// Documents in the window: Ctrl+D opens the panel, a folder added there is
// indexed with visible progress, ticking the collection makes this chat
// search it, a question gets an answer whose citations are listed under it,
// and clicking one opens the PDF inside Hearth at the cited page with the
// passage highlighted. Skipped without the embedding model
// (scripts/convert-models).
TestCase {
    id: testCase

    name: "Documents"
    when: windowShown
    visible: true
    width: 400
    height: 300

    Component {
        id: mainComponent

        Main {
            width: 1100
            height: 760
            session: TestEnv.session
        }
    }

    property var win: null
    readonly property var documents: TestEnv.session.documents

    SignalSpy {
        id: progress

        target: testCase.documents
        signalName: "progressChanged"
    }
    SignalSpy {
        id: indexed

        target: testCase.documents
        signalName: "indexed"
    }

    // Whether the indexing row was on screen while indexing ran.
    property bool sawIndexingRow: false
    Connections {
        target: testCase.documents
        function onIndexingChanged() {
            if (testCase.documents.indexing && testCase.win)
                Qt.callLater(() => testCase.sawIndexingRow = testCase.sawIndexingRow || testCase.find("indexingRow").visible)
        }
        function onProgressChanged() {
            if (testCase.documents.indexing && testCase.win && testCase.find("indexingRow").visible)
                testCase.sawIndexingRow = true
        }
    }

    function initTestCase() {
        if (!documents.embeddingModelFound)
            skip("the embedding model is missing: run scripts/setup and scripts/convert-models")
        win = mainComponent.createObject(null)
        verify(win, "the main window is created")
        verify(TestEnv.activate(win), "the main window is active")
        TestEnv.session.library.openPath(TestEnv.modelPath)
        tryVerify(() => TestEnv.session.loader.loaded, 5000, "the model loads")
    }

    function cleanupTestCase() {
        if (win)
            win.destroy()
    }

    function find(name, root) {
        return findChild(root || win.contentItem, name)
    }

    function key(k, modifiers) {
        TestEnv.keyClick(win, k, modifiers === undefined ? Qt.NoModifier : modifiers)
    }

    function screenshot(name) {
        const file = TestEnv.outputPath(name)
        verify(TestEnv.grabWindow(win, file), "the screenshot " + file + " is saved")
        verify(TestEnv.imageLooksRendered(file), file + " shows the window")
    }

    function test_1_aFolderIsIndexedWithProgress() {
        const panel = find("documentsPanel")
        verify(!panel.visible)
        key(Qt.Key_D, Qt.ControlModifier)
        tryVerify(() => panel.opened, 3000, "Ctrl+D opens the documents panel")
        verify(find("addFolderButton", panel.contentItem).enabled)
        verify(!find("embeddingModelMissing", panel.contentItem).visible)

        // What the folder dialog's Accept does with the chosen folder.
        panel.addPath(TestEnv.writeDocuments("town"))
        tryVerify(() => indexed.count > 0 && !documents.indexing, 60000, "the folder is indexed")
        verify(progress.count >= 2, "progress was reported: " + progress.count)
        verify(sawIndexingRow, "the progress row was shown while indexing")
        const report = find("indexReport", panel.contentItem)
        tryVerify(() => report.visible, 2000)
        verify(report.text.indexOf("2") >= 0, report.text)

        const list = find("collectionList", panel.contentItem)
        tryCompare(list, "count", 1)
        // The list is rebuilt when a collection changes: look the card up
        // each time.
        const card = () => list.itemAtIndex(0)
        verify(find("collectionSummary", card()).text.indexOf("2 document") === 0, // "(s)": no English translator here
               find("collectionSummary", card()).text)
        verify(!find("problemsButton", card()).visible, "every file was read")

        // A collection made here is what this chat asks about; the check
        // box says so and switches it.
        verify(find("useCollection", card()).checked)
        compare(documents.usedCount, 1)
        mouseClick(find("useCollection", card()))
        tryVerify(() => !find("useCollection", card()).checked)
        compare(documents.usedCount, 0)
        mouseClick(find("useCollection", card()))
        tryVerify(() => find("useCollection", card()).checked)
        compare(documents.usedCount, 1)
        screenshot("documents-panel.png")
        mouseClick(find("closeDocumentsButton", panel.contentItem))
        tryVerify(() => !panel.visible)
        verify(find("documentsButton").text.indexOf("1") >= 0, find("documentsButton").text)
    }

    function test_2_theAnswerCitesAndTheCitationOpensThePage() {
        const input = find("composerInput")
        mouseClick(input)
        input.text = "What is the lighthouse keeper's cat called?"
        key(Qt.Key_Return)
        tryVerify(() => !TestEnv.session.chat.generating, 30000, "the reply ends")
        const list = find("messageList")
        tryCompare(list, "count", 2)
        list.positionViewAtEnd()
        const reply = list.itemAtIndex(1)
        verify(reply)
        // The fake model cites one more source than it was given: gone.
        const text = TestEnv.lastMessageText()
        verify(text.indexOf("[1]") >= 0, text)
        verify(text.indexOf("Admiral Pepper") >= 0, text)

        // The source buttons are the sources list's children.
        let button = null
        tryVerify(() => {
            const buttons = Array.from(find("sourcesList", reply).children).filter(b => b.objectName === "sourceButton")
            button = buttons.find(b => b.modelData.page === 2 && /town\.pdf/.test(b.modelData.label)) || null
            return button !== null
        }, 3000, "a citation of town.pdf page 2 is listed")
        verify(button.text.indexOf("town.pdf · p. 2") >= 0, button.text)
        screenshot("documents-answer.png")

        mouseClick(button)
        const viewer = find("documentViewer")
        tryVerify(() => viewer.opened, 3000, "the citation opens the viewer")
        verify(find("viewerTitle", viewer.contentItem).text.indexOf("town.pdf") >= 0)
        const loader = find("pdfLoader", viewer.contentItem)
        if (!loader.active) {
            // No QtQuick.Pdf here: the indexed text, the passage selected.
            const area = find("documentText", viewer.contentItem)
            verify(area.selectedText.indexOf("Admiral Pepper") >= 0, area.selectedText)
        } else {
            tryVerify(() => loader.item && loader.item.ready, 10000, "the PDF opens")
            tryCompare(loader.item, "currentPage", 2, 5000, "at the cited page")
            tryVerify(() => loader.item.highlights > 0, 5000, "the passage is highlighted")
            compare(loader.item.currentPage, 2)
            verify(find("viewerPage", viewer.contentItem).text.indexOf("2 of 3") >= 0)
        }
        if (loader.active) {
            verify(loader.visible, "the PDF is shown")
            verify(!find("viewerNotice", viewer.contentItem).visible, find("viewerNotice", viewer.contentItem).text)
        }
        wait(300) // the page renders on a thread of its own
        screenshot("documents-viewer.png")
        mouseClick(find("closeViewerButton", viewer.contentItem))
        tryVerify(() => !viewer.visible)
    }
}
