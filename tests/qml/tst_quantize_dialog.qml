import QtQuick
import QtTest
import Hearth
import HearthTest

// "Quantize…" in the model picker: the dialog lists each type with its
// estimated size and bits per weight (F16 of an F16 file is not offered,
// and says why); Start shows progress and then the written file, which joins
// the list; Cancel stops a run and leaves no file; arrows, Enter and Escape
// work without a mouse.
TestCase {
    id: testCase

    name: "QuantizeDialog"
    when: windowShown
    visible: true
    width: 900
    height: 760

    property string smallPath: ""
    property string bigPath: ""
    property string q8Path: ""

    Component {
        id: pickerComponent

        ModelPicker {
            width: 860
            height: 720
            library: TestEnv.session.library
            loader: TestEnv.session.loader
        }
    }

    function initTestCase() {
        smallPath = TestEnv.writeWeightsModel("Small-F16", "Small F16 Model", 2, "F16")
        bigPath = TestEnv.writeWeightsModel("Big-F16", "Big F16 Model", 10, "F16")
        q8Path = TestEnv.writeWeightsModel("Small-Q8_0", "Small Q8 Model", 2, "Q8_0")
        verify(smallPath.length > 0 && bigPath.length > 0 && q8Path.length > 0)
    }

    function entry(list, name) {
        for (let i = 0; i < list.count; ++i) {
            const item = list.itemAtIndex(i)
            if (item && item.name === name)
                return item
        }
        return null
    }

    // Opens the picker and, from `name`'s row, the quantize dialog with its types listed.
    function openDialog(name) {
        const picker = createTemporaryObject(pickerComponent, testCase)
        picker.open()
        const list = findChild(picker, "modelList")
        tryVerify(() => !TestEnv.session.library.scanning, 5000)
        let row = null
        tryVerify(() => (row = entry(list, name)) !== null, 5000, name + " is listed")
        const button = findChild(row, "quantizeButton")
        verify(button.visible)
        mouseClick(button)
        const dialog = findChild(picker, "quantizeDialog")
        tryVerify(() => dialog.opened, 3000)
        tryCompare(dialog.quantizeJob, "state", QuantizeJob.Ready, 10000)
        // Every model here can become Q4_K_M: the usual choice, preselected.
        tryVerify(() => dialog.selected.name === "Q4_K_M", 3000, "Q4_K_M is preselected")
        return dialog
    }

    // The type list's row for `type` (scrolled into view, so that it exists).
    function typeRow(dialog, type) {
        const list = findChild(dialog, "quantizeTypes")
        const types = dialog.quantizeJob.types
        for (let i = 0; i < types.length; ++i) {
            if (types[i].name !== type)
                continue
            list.positionViewAtIndex(i, ListView.Contain)
            let row = null
            tryVerify(() => (row = list.itemAtIndex(i)) !== null, 3000, type + " is shown")
            return row
        }
        fail(type + " is not listed")
        return null
    }

    function test_1_typesWithSizes() {
        const dialog = openDialog("Small F16 Model")
        const job = dialog.quantizeJob
        verify(job.types.length >= 15, "every mix: " + job.types.length)
        verify(!findChild(dialog, "requantizeNote").visible, "an F16 file needs no requantize warning")
        for (const type of ["Q4_0", "Q4_K_M", "Q6_K", "Q8_0", "IQ4_XS"]) {
            const row = typeRow(dialog, type)
            verify(row.enabled, type)
            const size = findChild(row, "typeSize").text
            const info = row.modelData
            verify(size.indexOf(info.sizeText) >= 0, size)
            verify(size.indexOf(info.bpwText + " bits per weight") >= 0, size)
            verify(info.fileBytes > 0 && info.bpw > 0, type)
        }
        verify(typeRow(dialog, "Q4_0").modelData.fileBytes < typeRow(dialog, "Q8_0").modelData.fileBytes)
        const f16 = typeRow(dialog, "F16")
        verify(!f16.enabled, "F16 of an F16 file changes nothing")
        verify(f16.modelData.reason.indexOf("already F16") >= 0, f16.modelData.reason)
        verify(findChild(dialog, "outputName").text.indexOf("Small.Q4_K_M.gguf") >= 0,
               findChild(dialog, "outputName").text)
        dialog.close()
    }

    function test_2_startProgressDone() {
        const dialog = openDialog("Big F16 Model")
        const job = dialog.quantizeJob
        mouseClick(typeRow(dialog, "Q8_0"))
        compare(dialog.selected.name, "Q8_0")
        const progressSpy = createTemporaryObject(spyComponent, testCase, { target: job, signalName: "progressChanged" })
        const listed = TestEnv.session.library.models.count
        const start = findChild(dialog, "quantizeStartButton")
        verify(start.enabled)
        mouseClick(start)
        compare(job.state, QuantizeJob.Running)
        verify(findChild(dialog, "quantizeProgress").visible, "a progress bar while it runs")
        verify(findChild(dialog, "quantizeCancelButton").visible)
        verify(!findChild(dialog, "quantizeCloseButton").enabled)
        verify(!findChild(dialog, "outputName").visible, "no next name while it runs")
        tryCompare(job, "state", QuantizeJob.Done, 60000)
        verify(progressSpy.count >= 2, "progress was reported: " + progressSpy.count)
        compare(job.progress, 1)
        verify(!findChild(dialog, "quantizeProgress").visible)
        const message = findChild(dialog, "quantizeMessage")
        verify(message.visible && message.text.indexOf("Big.Q8_0.gguf") >= 0, message.text)
        verify(TestEnv.fileExists(job.resultPath), job.resultPath)
        verify(findChild(dialog, "quantizeLoadButton").visible)
        tryVerify(() => TestEnv.session.library.models.count === listed + 1, 10000, "listed without a rescan")
        dialog.close()
    }

    function test_3_cancelLeavesNoFile() {
        const dialog = openDialog("Big F16 Model")
        const job = dialog.quantizeJob
        mouseClick(typeRow(dialog, "Q4_K_M"))
        const target = job.outputPathFor("Q4_K_M")
        verify(target.indexOf("Big.Q4_K_M.gguf") >= 0, target)
        mouseClick(findChild(dialog, "quantizeStartButton"))
        compare(job.state, QuantizeJob.Running)
        mouseClick(findChild(dialog, "quantizeCancelButton"))
        tryCompare(job, "state", QuantizeJob.Cancelled, 30000)
        const message = findChild(dialog, "quantizeMessage")
        verify(message.text.indexOf("nothing was written") >= 0, message.text)
        verify(!TestEnv.fileExists(target), "no output")
        verify(!TestEnv.fileExists(target + ".tmp"), "no temporary file")
        verify(findChild(dialog, "quantizeStartButton").enabled, "it can start again")
        dialog.close()
    }

    function test_4_keyboard() {
        const dialog = openDialog("Small F16 Model")
        const job = dialog.quantizeJob
        const list = findChild(dialog, "quantizeTypes")
        verify(list.activeFocus, "the type list has the focus")
        const before = dialog.selected.name
        keyClick(Qt.Key_Down)
        verify(dialog.selected.name !== before, "Down picks the next type")
        while (!dialog.selected.available)
            keyClick(Qt.Key_Down)
        const chosen = dialog.selected.name
        keyClick(Qt.Key_Return)
        tryCompare(job, "state", QuantizeJob.Done, 60000)
        verify(job.resultPath.indexOf("Small." + chosen + ".gguf") >= 0, job.resultPath)
        keyClick(Qt.Key_Tab)
        verify(!list.activeFocus, "Tab leaves the list")
        keyClick(Qt.Key_Escape)
        tryVerify(() => !dialog.visible, 3000, "Escape closes")
    }

    // An already-quantized file: the dialog warns, each type says it
    // requantizes, and Start waits for "Requantize anyway".
    function test_5_requantizeNeedsTheTick() {
        const dialog = openDialog("Small Q8 Model")
        const job = dialog.quantizeJob
        verify(job.sourceQuantized)
        verify(findChild(dialog, "requantizeNote").visible)
        compare(dialog.selected.name, "Q4_K_M")
        verify(dialog.selected.requantize)
        verify(dialog.selected.reason.indexOf("lower quality") >= 0, dialog.selected.reason)
        const q8 = typeRow(dialog, "Q8_0")
        verify(!q8.enabled, "Q8_0 of a Q8_0 file changes nothing")
        const box = findChild(dialog, "requantizeBox")
        verify(box.visible && !box.checked)
        const start = findChild(dialog, "quantizeStartButton")
        verify(!start.enabled, "not without the tick")
        mouseClick(box)
        verify(start.enabled)
        mouseClick(start)
        tryCompare(job, "state", QuantizeJob.Done, 60000)
        verify(job.resultPath.indexOf("Small.Q4_K_M") >= 0, job.resultPath)
        dialog.close()
    }

    Component {
        id: spyComponent

        SignalSpy {}
    }
}
