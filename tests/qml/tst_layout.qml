import QtQuick
import QtQuick.Controls
import QtTest
import Hearth
import HearthTest

// The main window at its minimum size (720×480) and at 800×600: every
// control is inside the window and not clipped by its view (the gauge strip
// wraps rather than cut Weights and KV cache off), the sidebar collapses
// and comes back (Ctrl+B); a screenshot of each size is saved beside the
// test (layout-WxH.png) and checked for what it shows.
TestCase {
    id: testCase

    name: "Layout"
    when: windowShown
    visible: true
    width: 200
    height: 200

    Component {
        id: mainComponent

        Main {
            session: TestEnv.session
        }
    }

    property var win: null

    function initTestCase() {
        win = mainComponent.createObject(null, {width: 720, height: 480})
        verify(TestEnv.activate(win))
        TestEnv.session.library.openPath(TestEnv.modelPath)
        tryVerify(() => TestEnv.session.loader.loaded, 5000)
        TestEnv.session.chat.newConversation()
        verify(TestEnv.session.chat.send("How do zebras sleep?"))
        tryVerify(() => !TestEnv.session.chat.generating, 15000)
    }

    function cleanupTestCase() {
        if (win)
            win.destroy()
    }

    function find(name) {
        return findChild(win.contentItem, name)
    }

    // The part of `item` that is on screen: inside the window and every
    // clipping ancestor.
    function uncut(item) {
        const r = item.mapToItem(null, 0, 0, item.width, item.height)
        if (r.x < -0.5 || r.y < -0.5 || r.x + r.width > win.width + 0.5 || r.y + r.height > win.height + 0.5)
            return "outside the window: " + JSON.stringify(r)
        for (let up = item.parent; up; up = up.parent) {
            if (!up.clip)
                continue
            const c = up.mapToItem(null, 0, 0, up.width, up.height)
            if (r.x < c.x - 0.5 || r.y < c.y - 0.5 || r.x + r.width > c.x + c.width + 0.5
                    || r.y + r.height > c.y + c.height + 0.5)
                return "clipped by " + (up.objectName || up) + ": " + JSON.stringify(r) + " in " + JSON.stringify(c)
        }
        return ""
    }

    function checkSize(w, h) {
        win.width = w
        win.height = h
        tryVerify(() => win.width === w && win.height === h)
        wait(100) // layouts settle
        const controls = ["newChatButton", "searchField", "sidebarButton", "modelButton", "settingsButton",
                          "composerInput", "sendButton", "tokensPerSecond", "promptSpeed", "firstToken",
                          "contextGauge", "memoryGauge", "weightsGauge", "kvCacheGauge"]
        for (const name of controls) {
            const item = find(name)
            verify(item, name + " exists")
            verify(item.visible, name + " is shown at " + w + "×" + h)
            verify(item.width > 4 && item.height > 4, name + " has a size")
            const cut = uncut(item)
            compare(cut, "", name + " at " + w + "×" + h + " is " + cut)
        }
        // The last reply's actions and details are on screen too.
        const list = find("messageList")
        list.positionViewAtEnd()
        wait(50)
        const reply = list.itemAtIndex(list.count - 1)
        for (const name of ["copyMessageButton", "regenerateButton"]) {
            const item = findChild(reply, name)
            verify(item.visible, name)
            compare(uncut(item), "", name + " at " + w + "×" + h)
        }
        const file = TestEnv.outputPath("layout-" + w + "x" + h + ".png")
        verify(TestEnv.grabWindow(win, file), "the screenshot " + file + " is saved")
        verify(TestEnv.imageLooksRendered(file), file + " shows the window")
    }

    function test_1_minimumSize() {
        checkSize(720, 480)
    }

    function test_2_smallWindow() {
        checkSize(800, 600)
    }

    function test_3_sidebarCollapses() {
        const sidebar = find("newChatButton")
        verify(sidebar.visible)
        const composer = find("composerInput")
        const before = composer.width
        TestEnv.keyClick(win, Qt.Key_B, Qt.ControlModifier)
        tryVerify(() => !sidebar.visible, 2000, "Ctrl+B hides the sidebar")
        tryVerify(() => composer.width > before + 100, 2000, "the chat takes the room")
        mouseClick(find("sidebarButton"))
        tryVerify(() => sidebar.visible, 2000, "the header's button shows it again")
    }
}
