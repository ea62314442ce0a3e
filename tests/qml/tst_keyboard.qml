import QtQuick
import QtQuick.Controls
import QtTest
import Hearth
import HearthTest

// The whole window from the keyboard: Tab and Shift+Tab go round the main
// window, the model picker and the settings without a trap and without
// typing into text (Ctrl+Tab types a tab); conversations open from the list
// and from Search with arrows and Enter; the focused item is in view and
// ringed in a colour that stands out (3:1).
TestCase {
    id: testCase

    name: "Keyboard"
    when: windowShown
    visible: true
    width: 400
    height: 300

    Component {
        id: mainComponent

        Main {
            width: 1000
            height: 700
            session: TestEnv.session
        }
    }

    property var win: null

    function initTestCase() {
        win = mainComponent.createObject(null)
        verify(win, "the main window is created")
        verify(TestEnv.activate(win), "the main window is active")
        if (!TestEnv.session.loader.loaded) {
            TestEnv.session.library.openPath(TestEnv.modelPath)
            tryVerify(() => TestEnv.session.loader.loaded, 5000, "the model loads")
        }
    }

    // A failed test leaves no popup open for the next.
    function cleanup() {
        const popups = ["modelPicker", "settingsPanel", "documentsPanel"]
        for (const name of popups) {
            const popup = find(name)
            if (popup && popup.visible)
                popup.close()
        }
        tryVerify(() => popups.every(name => !find(name).visible))
    }

    function cleanupTestCase() {
        if (win)
            win.destroy()
    }

    function key(k, modifiers) {
        TestEnv.keyClick(win, k, modifiers === undefined ? Qt.NoModifier : modifiers)
    }

    function find(name, root) {
        return findChild(root || win.contentItem, name)
    }

    function label(item) {
        if (!item)
            return "(none)"
        return item.objectName || item.Accessible.name || String(item)
    }

    // Presses `k` until the focus comes back to where it started; the
    // items visited, in order. Fails on a trap (no way round in 60 steps).
    function roundTrip(k, modifiers) {
        const start = win.activeFocusItem
        verify(start, "something has the focus")
        const visited = []
        for (let i = 0; i < 60; ++i) {
            key(k, modifiers)
            const now = win.activeFocusItem
            if (now === start)
                return visited
            visited.push(now)
        }
        fail("the focus never came back to " + label(start) + " after: " + visited.map(label).join(", "))
    }

    function names(items) {
        return items.map(label)
    }

    // What a screen reader says for each control Tab reaches: never nothing.
    function verifyNamed(items, view) {
        for (const item of items) {
            const spoken = item.Accessible.name || item.text || item.placeholderText || ""
            verify(String(spoken).trim().length > 0, view + ": " + item + " (" + item.objectName + ") has no name")
        }
    }

    function sendAndWait(text) {
        const input = find("composerInput")
        input.forceActiveFocus()
        input.text = text
        key(Qt.Key_Return)
        tryVerify(() => !TestEnv.session.chat.generating, 15000, "the reply finishes")
    }

    function test_1_tabDoesNotTypeIntoText() {
        const input = find("composerInput")
        input.forceActiveFocus()
        input.text = "hello"
        input.cursorPosition = 5
        key(Qt.Key_Tab)
        verify(!input.activeFocus, "Tab leaves the message box")
        compare(input.text, "hello", "and types nothing")
        input.forceActiveFocus()
        key(Qt.Key_Backtab)
        verify(!input.activeFocus, "Shift+Tab leaves it too")
        compare(input.text, "hello")
        input.forceActiveFocus()
        input.cursorPosition = 5
        key(Qt.Key_Tab, Qt.ControlModifier)
        verify(input.activeFocus, "Ctrl+Tab stays")
        compare(input.text, "hello\t", "and types a tab")
        input.text = ""
    }

    function test_2_mainWindowTabOrder() {
        find("composerInput").forceActiveFocus()
        const visitedMain = roundTrip(Qt.Key_Tab)
        verifyNamed(visitedMain, "main window")
        const forward = names(visitedMain)
        for (const want of ["newChatButton", "searchField", "conversationList", "modelButton", "settingsButton"])
            verify(forward.indexOf(want) >= 0, want + " is reached by Tab: " + forward.join(", "))
        const backward = names(roundTrip(Qt.Key_Backtab))
        compare(backward.slice().reverse().join(", "), forward.join(", "), "Shift+Tab goes the same way back")
    }

    function test_3_focusRingStandsOut() {
        find("composerInput").forceActiveFocus()
        key(Qt.Key_Tab)
        const ring = find("focusRing", win.Overlay.overlay)
        verify(ring, "the ring is in the overlay")
        tryVerify(() => ring.visible, 2000, "a keyboard move shows the ring")
        const target = win.activeFocusItem
        const at = target.mapToItem(null, 0, 0)
        verify(ring.x <= at.x && ring.y <= at.y, "around the focused item")
        verify(ring.x + ring.width >= at.x + target.width && ring.y + ring.height >= at.y + target.height)
        const mode = Theme.mode
        for (const m of [Theme.Light, Theme.Dark]) {
            Theme.mode = m
            for (const background of [Theme.window, Theme.surface, Theme.sidebar, Theme.userBubble]) {
                verify(Theme.contrast(Theme.focusRing, background) >= 3, "ring contrast " + m)
                verify(Theme.contrast(Theme.inputBorder, background) >= 3, "input border contrast " + m)
            }
        }
        Theme.mode = mode
        mouseClick(find("composerInput"))
        // A click ends keyboard navigation (TestCase's mouse goes to its own
        // window; press in the main one).
    }

    function test_4_pickerTabOrder() {
        // No model loaded: the models' Load buttons are there to reach.
        TestEnv.session.loader.unload()
        find("composerInput").forceActiveFocus()
        key(Qt.Key_M, Qt.ControlModifier)
        const picker = find("modelPicker")
        tryVerify(() => picker.opened, 3000, "Ctrl+M opens the picker")
        const list = find("modelList", picker.contentItem)
        tryVerify(() => list.count >= 1 && !TestEnv.session.library.scanning, 5000)
        find("openFileButton", picker.contentItem).forceActiveFocus(Qt.TabFocusReason)
        const visited = roundTrip(Qt.Key_Tab)
        const forward = names(visited)
        verify(forward.indexOf("addFolderButton") >= 0, forward.join(", "))
        verify(forward.indexOf("loadButton") >= 0, "a model's Load button: " + forward.join(", "))
        for (const item of visited) {
            let inPicker = false
            for (let up = item; up; up = up.parent)
                if (up === picker.contentItem)
                    inPicker = true
            verify(inPicker, label(item) + " is inside the picker (modal)")
        }
        verifyNamed(visited, "model picker")
        roundTrip(Qt.Key_Backtab)
        key(Qt.Key_Escape)
        tryVerify(() => !picker.visible, 3000, "Esc closes the picker")
        TestEnv.session.library.openPath(TestEnv.modelPath)
        tryVerify(() => TestEnv.session.loader.loaded, 5000, "the model loads again")
    }

    function test_5_settingsTabOrder() {
        find("composerInput").forceActiveFocus()
        key(Qt.Key_Comma, Qt.ControlModifier)
        const panel = find("settingsPanel")
        tryVerify(() => panel.opened, 3000, "Ctrl+, opens the settings")
        const prompt = find("setting_systemPrompt", panel.contentItem)
        verify(prompt, "the system prompt row exists")
        const area = find("textArea", prompt)
        const before = area.text
        find("globalScopeButton", panel.contentItem).forceActiveFocus(Qt.TabFocusReason)
        const visited = roundTrip(Qt.Key_Tab)
        const forward = names(visited)
        for (const want of ["reloadButton", "themeBox"])
            verify(forward.indexOf(want) >= 0, want + " is reached: " + forward.join(", "))
        verify(visited.indexOf(area) >= 0, "the system prompt is reached")
        verifyNamed(visited, "settings")
        compare(area.text, before, "tabbing through it types nothing")
        // The focused item is in view: the last settings before Reload.
        const list = find("settingsList", panel.contentItem)
        for (const item of visited) {
            if (!list.contentItem || !isInside(item, list.contentItem))
                continue
            item.forceActiveFocus(Qt.TabFocusReason)
            key(Qt.Key_Tab)
            key(Qt.Key_Backtab)
            const focused = win.activeFocusItem
            if (!isInside(focused, list.contentItem))
                continue
            const r = focused.mapToItem(list, 0, 0)
            verify(r.y >= -1 && r.y + Math.min(focused.height, list.height) <= list.height + 1,
                   label(focused) + " is scrolled into view (y " + r.y + " of " + list.height + ")")
        }
        roundTrip(Qt.Key_Backtab)
        key(Qt.Key_Escape)
        tryVerify(() => !panel.visible, 3000, "Esc closes the settings")
    }

    // The Documents panel: Ctrl+D opens it, Tab goes round its controls and
    // a collection's without a trap, every one named, Esc closes it.
    function test_7_documentsTabOrder() {
        const docs = TestEnv.session.documents
        if (docs.collections.length === 0 && docs.embeddingModelFound)
            docs.createCollection("Keyboard notes")
        find("composerInput").forceActiveFocus()
        key(Qt.Key_D, Qt.ControlModifier)
        const panel = find("documentsPanel")
        tryVerify(() => panel.opened, 3000, "Ctrl+D opens the documents panel")
        find("closeDocumentsButton", panel.contentItem).forceActiveFocus(Qt.TabFocusReason)
        const visited = roundTrip(Qt.Key_Tab)
        verifyNamed(visited, "documents")
        const forward = names(visited)
        for (const want of docs.embeddingModelFound ? ["addFolderButton", "addFilesButton", "useCollection"] : [])
            verify(forward.indexOf(want) >= 0, want + " is reached: " + forward.join(", "))
        roundTrip(Qt.Key_Backtab)
        key(Qt.Key_Escape)
        tryVerify(() => !panel.visible, 3000, "Esc closes the documents panel")
    }

    function isInside(item, ancestor) {
        for (let up = item; up; up = up.parent)
            if (up === ancestor)
                return true
        return false
    }

    function test_6_conversationsFromTheKeyboard() {
        TestEnv.session.chat.newConversation()
        sendAndWait("first alpha conversation")
        const firstId = TestEnv.conversationId()
        TestEnv.session.chat.newConversation()
        sendAndWait("second beta conversation")
        const secondId = TestEnv.conversationId()
        verify(firstId !== secondId)

        const list = find("conversationList")
        tryVerify(() => list.count >= 2)
        list.forceActiveFocus(Qt.TabFocusReason)
        verify(list.currentIndex >= 0, "the list has a current row once focused")
        // Walk the rows with the arrows and open each with Enter.
        const opened = []
        list.currentIndex = 0
        for (let i = 0; i < list.count; ++i) {
            key(Qt.Key_Return)
            opened.push(TestEnv.conversationId())
            compare(TestEnv.conversationId(), list.currentItem.conversationId, "Enter opens row " + i)
            key(Qt.Key_Down)
        }
        verify(opened.indexOf(firstId) >= 0 && opened.indexOf(secondId) >= 0, "both were opened: " + opened)

        // Search: Ctrl+K, type, Enter opens the first result; Down then Enter.
        key(Qt.Key_K, Qt.ControlModifier)
        const search = find("searchField")
        verify(search.activeFocus, "Ctrl+K focuses Search")
        search.text = "alpha"
        search.textEdited()
        tryVerify(() => list.count === 1, 3000, "one result")
        TestEnv.session.chat.openConversation(secondId)
        key(Qt.Key_Return)
        compare(TestEnv.conversationId(), firstId, "Enter in Search opens the first result")
        TestEnv.session.chat.openConversation(secondId)
        search.forceActiveFocus()
        key(Qt.Key_Down)
        verify(list.activeFocus, "Down goes to the results")
        key(Qt.Key_Return)
        compare(TestEnv.conversationId(), firstId, "Enter there opens it")
        search.forceActiveFocus()
        key(Qt.Key_Escape)
        tryVerify(() => list.count >= 2, 3000, "Esc clears the search")
    }
}
