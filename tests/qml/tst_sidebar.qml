import QtQuick
import QtQuick.Controls
import QtTest
import Hearth
import HearthTest

// The sidebar: conversations grouped by date, full-text search with a
// snippet, rename and delete.
TestCase {
    id: testCase

    name: "Sidebar"
    when: windowShown
    visible: true
    width: 400
    height: 700

    Component {
        id: sidebarComponent

        Sidebar {
            width: 300
            height: 680
            session: TestEnv.session
        }
    }

    function chat(text) {
        tryVerify(() => TestEnv.session.chat.canSend, 5000)
        TestEnv.session.chat.newConversation()
        verify(TestEnv.session.chat.send(text))
        tryVerify(() => !TestEnv.session.chat.generating, 15000)
    }

    function initTestCase() {
        TestEnv.session.library.openPath(TestEnv.modelPath)
        tryVerify(() => TestEnv.session.loader.loaded, 5000)
        chat("How do zebras sleep?")
        chat("写一首关于猫的诗")
    }

    function test_1_groupedByDate() {
        const bar = createTemporaryObject(sidebarComponent, testCase)
        const list = findChild(bar, "conversationList")
        tryCompare(list, "count", 2)
        verify(!findChild(bar, "noConversationsLabel").visible)
        compare(list.section.property, "section")
        const first = list.itemAtIndex(0)
        compare(first.title, "写一首关于猫的诗", "newest first")
        verify(first.current)
    }

    function test_2_searchFindsMessages() {
        const bar = createTemporaryObject(sidebarComponent, testCase)
        const list = findChild(bar, "conversationList")
        const search = findChild(bar, "searchField")
        search.forceActiveFocus()
        for (const c of "zebra")
            keyClick(c)
        compare(search.text, "zebra")
        tryVerify(() => list.count === 1 && list.itemAtIndex(0).snippet.indexOf("<b>zebra</b>") >= 0, 3000)
        compare(list.itemAtIndex(0).title, "How do zebras sleep?")
        TestEnv.session.conversations.searchText = "关于猫"
        tryVerify(() => list.count === 1 && list.itemAtIndex(0).snippet.indexOf("<b>关于猫</b>") >= 0, 3000)
        TestEnv.session.conversations.searchText = "猫" // one character: not enough for the index, still found
        tryVerify(() => list.count === 1 && list.itemAtIndex(0).snippet.indexOf("<b>猫</b>") >= 0, 3000)
        TestEnv.session.conversations.searchText = "no such words anywhere"
        tryCompare(list, "count", 0, 3000)
        verify(findChild(bar, "noConversationsLabel").visible)
        TestEnv.session.conversations.searchText = ""
        tryCompare(list, "count", 2, 3000)
    }

    function test_3_renameInPlace() {
        const bar = createTemporaryObject(sidebarComponent, testCase)
        const list = findChild(bar, "conversationList")
        tryCompare(list, "count", 2)
        let item = null
        tryVerify(() => (item = list.itemAtIndex(1)) !== null)
        item.startRename()
        const field = findChild(item, "renameField")
        tryVerify(() => field.visible && field.activeFocus)
        field.text = "Zebra sleep"
        keyClick(Qt.Key_Return)
        tryVerify(() => list.itemAtIndex(1).title === "Zebra sleep")
    }

    function test_4_delete() {
        const bar = createTemporaryObject(sidebarComponent, testCase)
        const list = findChild(bar, "conversationList")
        tryCompare(list, "count", 2)
        let current = null
        tryVerify(() => (current = list.itemAtIndex(0)) !== null && current.current)
        verify(TestEnv.session.chat.messages.count > 0)
        const id = current.conversationId
        const title = current.title
        // From the keyboard: Delete on the focused row asks, and says "Delete".
        list.forceActiveFocus(Qt.TabFocusReason)
        list.currentIndex = 0
        keyClick(Qt.Key_Delete)
        const dialog = findChild(current, "deleteDialog")
        tryVerify(() => dialog.opened, 3000, "Delete asks first")
        const ok = dialog.standardButton(Dialog.Ok)
        compare(ok.text, "Delete", "the button says what it does")
        mouseClick(ok)
        tryCompare(list, "count", 1)
        compare(TestEnv.session.chat.messages.count, 0, "the open conversation was deleted: a new chat")

        // Undo, for a few seconds: the conversation is back, and open.
        const undoBar = findChild(bar, "undoBar")
        verify(undoBar.visible, "an undo bar")
        compare(TestEnv.session.conversations.pendingRemovalTitle, title)
        mouseClick(findChild(bar, "undoDeleteButton"))
        tryCompare(list, "count", 2)
        verify(!undoBar.visible)
        compare(TestEnv.conversationId(), id, "the restored conversation is open again")
        verify(TestEnv.session.chat.messages.count > 0, "with its messages")

        // Not undone: gone from the database once the time is up.
        TestEnv.session.conversations.remove(id)
        tryCompare(list, "count", 1)
        verify(undoBar.visible)
        tryVerify(() => !undoBar.visible, 9000, "the undo bar goes after a few seconds")
        TestEnv.session.conversations.refresh()
        compare(list.count, 1, "and the conversation stays deleted")
        TestEnv.session.conversations.searchText = title
        wait(400)
        compare(list.count, 0, "not even found by search")
        TestEnv.session.conversations.searchText = ""
    }
}
