import QtQuick
import QtTest
import Hearth
import HearthTest

// The model picker: folder scan with header facts and fit, a broken file
// shown with its error, loading from the list, a clear message for an
// invalid file, cancelling a load.
TestCase {
    id: testCase

    name: "ModelPicker"
    when: windowShown
    visible: true
    width: 900
    height: 700

    Component {
        id: pickerComponent

        ModelPicker {
            width: 760
            height: 560
            library: TestEnv.session.library
            loader: TestEnv.session.loader
        }
    }

    Component {
        id: headerComponent

        ChatHeader {
            width: 800
            loader: TestEnv.session.loader
            documents: TestEnv.session.documents
        }
    }

    function init() {
        tryVerify(() => !TestEnv.session.loader.busy, 5000)
        TestEnv.session.library.clearError()
    }

    function entry(list, name) {
        for (let i = 0; i < list.count; ++i) {
            const item = list.itemAtIndex(i)
            if (item && item.name === name)
                return item
        }
        return null
    }

    function test_1_listsModelsFromTheFolder() {
        const picker = createTemporaryObject(pickerComponent, testCase)
        picker.open()
        const list = findChild(picker, "modelList")
        tryCompare(list, "count", 2, 5000)
        tryVerify(() => !TestEnv.session.library.scanning, 5000)
        let tiny = null
        tryVerify(() => (tiny = entry(list, "Tiny Test Model")) !== null, 3000, "listed by its general.name")
        compare(tiny.architecture, "llama")
        compare(tiny.quant, "F32")
        compare(tiny.trainedContext, 2048)
        verify(tiny.fitText.length > 0, "a fit estimate")
        compare(tiny.error, "")
        const broken = entry(list, "broken")
        verify(broken, "the broken file is listed too")
        verify(broken.error.length > 0, "with why it cannot be used")
        verify(!findChild(broken, "loadButton").enabled)
    }

    function test_2_loadFromTheList() {
        const picker = createTemporaryObject(pickerComponent, testCase)
        picker.open()
        const list = findChild(picker, "modelList")
        tryCompare(list, "count", 2, 5000)
        tryVerify(() => !TestEnv.session.library.scanning, 5000)
        let tiny = null
        tryVerify(() => (tiny = entry(list, "Tiny Test Model")) !== null)
        mouseClick(findChild(tiny, "loadButton"))
        verify(TestEnv.session.loader.busy, "loading starts")
        tryVerify(() => TestEnv.session.loader.loaded, 5000)
        compare(TestEnv.session.loader.modelName, "Tiny Test Model")
        tryVerify(() => tiny.loaded)
    }

    function test_3_invalidFileGetsAClearMessage() {
        const picker = createTemporaryObject(pickerComponent, testCase)
        picker.open()
        TestEnv.session.library.openPath(TestEnv.brokenModelPath)
        tryVerify(() => TestEnv.session.library.error.length > 0, 5000)
        const message = TestEnv.session.library.error
        verify(message.indexOf("broken.gguf") >= 0, message)
        verify(message.indexOf("not a valid model") >= 0, message)
        verify(findChild(picker, "bannerText").visible)
        TestEnv.session.library.openPath(TestEnv.modelPath + ".missing")
        tryVerify(() => TestEnv.session.library.error.indexOf("not a file") >= 0, 5000)
    }

    function test_4_cancelLoading() {
        const header = createTemporaryObject(headerComponent, testCase)
        TestEnv.session.loader.unload()
        TestEnv.session.library.load(TestEnv.modelPath)
        const progress = findChild(header, "loadProgress")
        tryVerify(() => progress.visible)
        tryVerify(() => progress.value > 0, 3000, "progress moves")
        mouseClick(findChild(header, "cancelLoadButton"))
        tryVerify(() => !TestEnv.session.loader.busy, 3000)
        verify(!TestEnv.session.loader.loaded)
        compare(TestEnv.session.loader.error, "", "a cancel is not an error")
        verify(!progress.visible)
    }

    function test_5_dropsAcceptOnlyModelFiles() {
        verify(TestEnv.session.library.acceptsUrl("file://" + TestEnv.modelPath))
        verify(!TestEnv.session.library.acceptsUrl("file:///tmp/notes.txt"))
        verify(!TestEnv.session.library.acceptsUrl("https://example.org/model.gguf"))
    }

    // Qt's own file dialog (offscreen has no native one) on the packages of
    // scripts/debian-packages.txt: it opens, and what it picks is opened.
    function test_6_openFileWithQtsDialog() {
        TestEnv.session.loader.unload()
        const picker = createTemporaryObject(pickerComponent, testCase)
        picker.open()
        const dialog = findChild(picker, "fileDialog")
        // What a person would pick (Qt's dialog starts there and selects it).
        dialog.currentFolder = "file://" + TestEnv.modelPath.substring(0, TestEnv.modelPath.lastIndexOf("/"))
        dialog.selectedFile = "file://" + TestEnv.modelPath
        mouseClick(findChild(picker, "openFileButton"))
        tryVerify(() => dialog.visible, 3000, "the file dialog opens")
        verify(!findChild(picker, "pathDialog").visible, "no fallback: every module is there")
        dialog.accept()
        tryVerify(() => TestEnv.session.loader.loaded, 5000, "the chosen file loads")
        compare(TestEnv.session.loader.modelPath, TestEnv.modelPath)
    }

    function test_7_addFolderWithQtsDialog() {
        const folder = TestEnv.makeFolder("more-models")
        const picker = createTemporaryObject(pickerComponent, testCase)
        picker.open()
        mouseClick(findChild(picker, "addFolderButton"))
        const dialog = findChild(picker, "folderDialog")
        tryVerify(() => dialog.visible, 3000, "the folder dialog opens")
        dialog.selectedFolder = "file://" + folder
        dialog.accept()
        tryVerify(() => TestEnv.session.library.folders.indexOf(folder) >= 0, 3000, "the folder is added")
        TestEnv.session.library.removeFolder(folder)
    }

    // Where a module the dialog needs is missing, a typed path instead, and
    // the reason with the package to install; nothing crashes.
    function test_8_fallbackWhenAModuleIsMissing() {
        TestEnv.session.loader.unload()
        const picker = createTemporaryObject(pickerComponent, testCase)
        picker.dialogModules = ["QtQuick.Dialogs", "Qt.labs.nosuchmodule"]
        picker.open()
        mouseClick(findChild(picker, "openFileButton"))
        const fallback = findChild(picker, "pathDialog")
        tryVerify(() => fallback.opened, 3000, "the fallback opens")
        verify(!findChild(picker, "fileDialog").visible)
        const reason = findChild(fallback, "pathDialogReason").text
        verify(reason.indexOf("Qt.labs.nosuchmodule") >= 0, reason)
        verify(reason.indexOf("qml6-module-qt-labs-nosuchmodule") >= 0, reason)
        const field = findChild(fallback, "pathField")
        verify(field.activeFocus, "the path field has the focus")
        verify(!findChild(fallback, "pathOpenButton").enabled, "nothing to open yet")
        field.text = TestEnv.modelPath
        keyClick(Qt.Key_Return)
        tryVerify(() => TestEnv.session.loader.loaded, 5000, "the typed file loads")
        compare(TestEnv.session.loader.modelPath, TestEnv.modelPath)

        picker.open()
        mouseClick(findChild(picker, "addFolderButton"))
        tryVerify(() => fallback.opened, 3000)
        verify(!findChild(picker, "folderDialog").visible)
        field.text = TestEnv.modelPath + ".nothere"
        keyClick(Qt.Key_Return)
        tryVerify(() => TestEnv.session.library.error.indexOf("is not a folder") >= 0, 3000,
                  "a wrong folder says so")
        const folder = TestEnv.makeFolder("typed-folder")
        mouseClick(findChild(picker, "addFolderButton"))
        tryVerify(() => fallback.opened, 3000)
        field.text = folder
        keyClick(Qt.Key_Return)
        tryVerify(() => TestEnv.session.library.folders.indexOf(folder) >= 0, 3000, "the typed folder is added")
        compare(TestEnv.session.library.error, "")
        TestEnv.session.library.removeFolder(folder)
    }

    // A folder goes only on a second click: one click on the chip asks.
    function test_9_removingAFolderAsksFirst() {
        const folder = TestEnv.makeFolder("chip-folder")
        TestEnv.session.library.addFolder("file://" + folder)
        tryVerify(() => TestEnv.session.library.folders.indexOf(folder) >= 0)
        const picker = createTemporaryObject(pickerComponent, testCase)
        picker.open()
        const chips = findChild(picker, "folderChips")
        verify(chips, "the folder chips")
        let chip = null
        tryVerify(() => {
            for (let i = 0; i < chips.children.length; ++i)
                if (chips.children[i].objectName === "folderChip:" + folder)
                    chip = chips.children[i]
            return chip !== null
        }, 3000, "the folder's chip")
        mouseClick(chip)
        verify(TestEnv.session.library.folders.indexOf(folder) >= 0, "one click removes nothing")
        verify(chip.text.indexOf("Click again") >= 0, chip.text)
        mouseClick(chip)
        tryVerify(() => TestEnv.session.library.folders.indexOf(folder) < 0, 2000, "the second click removes it")
    }
}
