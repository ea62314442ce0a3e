import QtQuick
import QtTest
import Hearth

TestCase {
    id: testCase

    name: "MainLayout"
    when: windowShown
    visible: true // TestCase is hidden by default; the views under test must be shown
    width: 900
    height: 600

    Component {
        id: chatViewComponent
        ChatView {
            width: 700
            height: 500
        }
    }

    Component {
        id: sidebarComponent
        Sidebar {
            width: 250
            height: 500
        }
    }

    function test_appInfo() {
        compare(AppInfo.name, "Hearth")
        verify(AppInfo.version.length > 0)
    }

    function test_emptyChatShowsWelcome() {
        const view = createTemporaryObject(chatViewComponent, testCase)
        verify(view)
        const welcome = findChild(view, "welcomeLabel")
        verify(welcome, "welcome text present")
        compare(welcome.text, "Welcome to Hearth")
        verify(welcome.visible)
        const send = findChild(view, "sendButton")
        verify(send, "send button present")
        verify(!send.enabled, "nothing to send without a model")
    }

    function test_sidebarHasNewChat() {
        const bar = createTemporaryObject(sidebarComponent, testCase)
        verify(bar)
        compare(findChild(bar, "newChatButton").text, "New chat")
        verify(findChild(bar, "noConversationsLabel").visible)
    }
}
