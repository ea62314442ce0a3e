import QtQuick
import QtTest
import Hearth
import HearthTest

// The settings panel: every setting has a control, GPU layers is disabled
// with its reason, edits reach the defaults or the model's overrides, and
// resetting an override shows the default again.
TestCase {
    id: testCase

    name: "SettingsPanel"
    when: windowShown
    visible: true
    width: 900
    height: 800

    Component {
        id: panelComponent

        SettingsPanel {
            width: 420
            height: 780
            settings: TestEnv.session.settings
            loader: TestEnv.session.loader
        }
    }

    function openPanel() {
        const panel = createTemporaryObject(panelComponent, testCase)
        panel.open()
        tryVerify(() => panel.opened)
        return panel
    }

    function row(panel, key) {
        const list = findChild(panel, "settingsList")
        const index = TestEnv.session.settings.rowOf(key)
        list.positionViewAtIndex(index, ListView.Contain)
        return list.itemAtIndex(index)
    }

    function test_1_everySettingIsThere() {
        const panel = openPanel()
        for (const key of ["temperature", "topK", "topP", "minP", "repeatPenalty", "maxTokens", "contextSize",
                           "gpuLayers", "threads", "seed", "systemPrompt"])
            verify(row(panel, key), key)
        verify(findChild(row(panel, "temperature"), "slider").visible)
        verify(findChild(row(panel, "topK"), "spinBox").visible)
        verify(findChild(row(panel, "systemPrompt"), "textArea").visible)
    }

    function test_2_gpuLayersDisabledWithReason() {
        const panel = openPanel()
        const gpu = row(panel, "gpuLayers")
        verify(!gpu.available)
        verify(!findChild(gpu, "spinBox").enabled)
        verify(gpu.unavailableReason.indexOf("GPU") >= 0, gpu.unavailableReason)
    }

    function test_3_editingAGlobalDefault() {
        TestEnv.session.settings.scope = SettingsModel.Global
        const panel = openPanel()
        const slider = findChild(row(panel, "temperature"), "slider")
        slider.forceActiveFocus()
        const before = TestEnv.session.settings.value("temperature")
        keyClick(Qt.Key_Right)
        tryCompare(TestEnv.session.settings, "scope", SettingsModel.Global)
        fuzzyCompare(TestEnv.session.settings.value("temperature"), before + 0.05, 1e-9)
        verify(findChild(row(panel, "temperature"), "resetButton").visible)
        mouseClick(findChild(row(panel, "temperature"), "resetButton"))
        fuzzyCompare(TestEnv.session.settings.value("temperature"), 0.7, 1e-9)
    }

    function test_4_modelOverrides() {
        const panel = openPanel()
        TestEnv.session.loader.unload()
        verify(!findChild(panel, "modelScopeButton").enabled, "no model, no overrides")
        TestEnv.session.library.openPath(TestEnv.modelPath)
        tryVerify(() => TestEnv.session.loader.loaded, 5000)
        tryVerify(() => findChild(panel, "modelScopeButton").enabled)
        mouseClick(findChild(panel, "modelScopeButton"))
        compare(TestEnv.session.settings.scope, SettingsModel.Model)

        const spin = findChild(row(panel, "topK"), "spinBox")
        spin.forceActiveFocus()
        keyClick(Qt.Key_Up)
        compare(TestEnv.session.settings.value("topK"), 41)
        verify(row(panel, "topK").overridden)

        TestEnv.session.settings.scope = SettingsModel.Global
        compare(TestEnv.session.settings.value("topK"), 40, "the default is untouched")
        TestEnv.session.settings.scope = SettingsModel.Model
        mouseClick(findChild(row(panel, "topK"), "resetButton"))
        compare(TestEnv.session.settings.value("topK"), 40, "the default shows through again")
        verify(!row(panel, "topK").overridden)
    }

    function test_5_systemPrompt() {
        TestEnv.session.settings.scope = SettingsModel.Global
        const panel = openPanel()
        const area = findChild(row(panel, "systemPrompt"), "textArea")
        area.forceActiveFocus()
        area.text = "You answer in haiku."
        findChild(panel, "themeBox").forceActiveFocus() // focus leaves: editing finished
        tryCompare(TestEnv.session.settings, "scope", SettingsModel.Global)
        tryVerify(() => TestEnv.session.settings.value("systemPrompt") === "You answer in haiku.")
    }
}
