import QtQuick
import QtTest
import Hearth
import HearthTest

// Settings → Engines: the panel's button opens the dialog; a bad URL is
// refused in words; a good one is added (no key: the keychain is not
// involved here; test_remote_app covers it); Edit fills the form, Save
// changes the endpoint, Remove takes it away.
TestCase {
    id: testCase

    name: "EnginesDialog"
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
            endpoints: TestEnv.session.endpoints
        }
    }

    function openDialog() {
        const panel = createTemporaryObject(panelComponent, testCase)
        panel.open()
        tryVerify(() => panel.opened)
        const button = findChild(panel, "enginesButton")
        verify(button.visible)
        mouseClick(button)
        const dialog = findChild(panel, "enginesDialog")
        tryVerify(() => dialog.opened)
        return dialog
    }

    function type(dialog, name, text) {
        const field = findChild(dialog, name)
        field.text = text
    }

    function rowButton(dialog, name) {
        const row = findChild(dialog, "endpointRepeater").itemAt(0)
        verify(row)
        return findChild(row, name)
    }

    function test_addEditRemove() {
        const endpoints = TestEnv.session.endpoints
        const dialog = openDialog()
        type(dialog, "endpointUrl", "ftp://nowhere")
        mouseClick(findChild(dialog, "saveEndpoint"))
        const message = findChild(dialog, "endpointMessage")
        verify(message.text.indexOf("http://") >= 0, message.text)
        compare(endpoints.count, 0)

        type(dialog, "endpointName", "Lab box")
        type(dialog, "endpointUrl", "http://127.0.0.1:9/v1")
        type(dialog, "endpointHeaders", "X-Team: hearth")
        mouseClick(findChild(dialog, "saveEndpoint"))
        compare(endpoints.count, 1)
        compare(endpoints.get(0).name, "Lab box")
        compare(endpoints.get(0).headers, "X-Team: hearth")
        compare(findChild(dialog, "endpointUrl").text, "") // the form is ready for the next one
        // Nothing listens on port 9: the listing fails, in words.
        tryVerify(() => endpoints.get(0).status.length > 0, 10000)
        verify(!endpoints.get(0).statusOk)

        mouseClick(rowButton(dialog, "editEndpoint0"))
        compare(findChild(dialog, "endpointName").text, "Lab box")
        compare(findChild(dialog, "endpointUrl").text, "http://127.0.0.1:9/v1")
        type(dialog, "endpointName", "Lab box 2")
        mouseClick(findChild(dialog, "saveEndpoint"))
        compare(endpoints.count, 1)
        compare(endpoints.get(0).name, "Lab box 2")

        mouseClick(rowButton(dialog, "removeEndpoint0"))
        compare(endpoints.count, 0)
    }
}
