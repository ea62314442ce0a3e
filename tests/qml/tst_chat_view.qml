import QtQuick
import QtTest
import Hearth
import HearthTest

// The chat view against the fake engine: welcome, Enter sends and the reply
// streams, Shift+Enter, Esc stops, copy code, regenerate, edit and resend.
TestCase {
    id: testCase

    name: "ChatView"
    when: windowShown
    visible: true // TestCase is hidden by default; the views under test must be shown
    width: 1000
    height: 720

    Component {
        id: viewComponent

        ChatView {
            width: 960
            height: 700
            session: TestEnv.session
        }
    }

    function loadModel() {
        if (!TestEnv.session.loader.loaded) {
            TestEnv.session.library.openPath(TestEnv.modelPath)
            tryVerify(() => TestEnv.session.loader.loaded, 5000, "the model loads")
        }
    }

    function send(view, text) {
        const input = findChild(view, "composerInput")
        input.forceActiveFocus()
        input.text = text
        keyClick(Qt.Key_Return)
        return input
    }

    function waitForReply() {
        tryVerify(() => !TestEnv.session.chat.generating, 15000, "the reply finishes")
    }

    // The controller's own events: a reply that starts, streams and ends
    // between two polls of `generating` is still counted.
    SignalSpy {
        id: replyStarted

        target: TestEnv.session.chat
        signalName: "replyStarted"
    }
    SignalSpy {
        id: replyFinished

        target: TestEnv.session.chat
        signalName: "replyFinished"
    }

    SignalSpy {
        id: textShown

        target: TestEnv.session.chat
        signalName: "textShown"
    }

    // Runs `action`, which must start a new reply, and waits until that reply
    // has finished.
    function expectNewReply(action) {
        const started = replyStarted.count
        const finished = replyFinished.count
        action()
        tryVerify(() => replyStarted.count > started, 10000, "a new reply starts")
        tryVerify(() => replyFinished.count > finished, 15000, "the new reply finishes")
        waitForReply()
    }

    function init() {
        waitForReply()
        TestEnv.session.chat.newConversation()
    }

    function test_1_welcomeWithoutModel() {
        const view = createTemporaryObject(viewComponent, testCase)
        const welcome = findChild(view, "welcomeLabel")
        compare(welcome.text, "Welcome to Hearth")
        verify(welcome.visible)
        verify(findChild(view, "chooseModelButton").visible)
        verify(!findChild(view, "sendButton").enabled, "nothing to send without a model")
    }

    function test_2_enterSendsAndTheReplyStreams() {
        loadModel()
        const view = createTemporaryObject(viewComponent, testCase)
        const list = findChild(view, "messageList")
        const batchesBefore = textShown.count
        const input = send(view, "Hello, how do I measure speed?")
        tryCompare(list, "count", 2)
        compare(input.text, "", "the box is emptied")
        verify(findChild(view, "stopButton").visible, "Send became Stop")
        waitForReply()
        // Streamed: the text arrived in several batches, the first shorter
        // than the whole (counted from the controller's events, not polled).
        verify(textShown.count - batchesBefore >= 2, "several batches: " + (textShown.count - batchesBefore))
        verify(textShown.signalArguments[batchesBefore][1] < TestEnv.lastMessageText().length,
               "more text arrived after the first batch")
        const details = findChild(list.itemAtIndex(1), "detailsLabel")
        tryVerify(() => details.text.indexOf("seed") >= 0)
        verify(details.text.indexOf("F32") >= 0, "provenance shows the quant: " + details.text)
        verify(!findChild(view, "welcomeLabel").visible)
    }

    function test_3_shiftEnterStartsANewLine() {
        loadModel()
        const view = createTemporaryObject(viewComponent, testCase)
        const input = findChild(view, "composerInput")
        input.forceActiveFocus()
        input.text = "first line"
        input.cursorPosition = input.length
        keyClick(Qt.Key_Return, Qt.ShiftModifier)
        keyClick(Qt.Key_A)
        compare(input.text, "first line\na")
        compare(findChild(view, "messageList").count, 0, "nothing was sent")
    }

    function test_4_escapeStopsTheReply() {
        loadModel()
        const view = createTemporaryObject(viewComponent, testCase)
        const list = findChild(view, "messageList")
        send(view, "Tell me a long story")
        tryVerify(() => TestEnv.lastMessageText().length > 20, 5000)
        keyClick(Qt.Key_Escape)
        waitForReply()
        const stoppedAt = TestEnv.lastMessageText().length
        wait(100)
        compare(TestEnv.lastMessageText().length, stoppedAt, "nothing arrives after stop")
        tryVerify(() => findChild(list.itemAtIndex(1), "detailsLabel").text.indexOf("stopped") >= 0)
    }

    function test_5_copyCodeBlock() {
        loadModel()
        const view = createTemporaryObject(viewComponent, testCase)
        // The fake engine's replies always include code for this prompt and seed range.
        let copy = null
        for (let attempt = 0; attempt < 4 && !copy; ++attempt) {
            send(view, "Show me code, attempt " + attempt)
            waitForReply()
            copy = findChild(view, "copyCodeButton")
        }
        verify(copy, "a reply with a code block")
        copy.clicked() // it may be scrolled out of view: no mouse click there
        const code = TestEnv.clipboardText()
        verify(code.length > 10)
        verify(TestEnv.lastMessageText().indexOf(code) >= 0, "the fence's code, without the fence")
        verify(code.indexOf("```") < 0)
    }

    function test_6_regenerateReplacesTheLastReply() {
        loadModel()
        const view = createTemporaryObject(viewComponent, testCase)
        const list = findChild(view, "messageList")
        send(view, "Give me an answer")
        waitForReply()
        const first = TestEnv.lastMessageText()
        const regenerate = findChild(list.itemAtIndex(1), "regenerateButton")
        tryVerify(() => regenerate.visible && regenerate.enabled)
        expectNewReply(() => mouseClick(regenerate))
        compare(list.count, 2, "the reply was replaced, not added")
        verify(TestEnv.lastMessageText() !== first, "a new seed gives a new reply")
    }

    function test_7_editAndResend() {
        loadModel()
        const view = createTemporaryObject(viewComponent, testCase)
        const list = findChild(view, "messageList")
        send(view, "Original question")
        waitForReply()
        list.pinned = false
        list.positionViewAtBeginning()
        const edit = findChild(list.itemAtIndex(0), "editButton")
        tryVerify(() => edit.visible && edit.enabled)
        mouseClick(edit)
        const area = findChild(view, "editArea")
        tryVerify(() => area.visible)
        compare(area.text, "Original question")
        area.text = "Edited question"
        expectNewReply(() => mouseClick(findChild(view, "resendButton")))
        compare(list.count, 2)
        compare(TestEnv.session.chat.messages.textOf(list.itemAtIndex(0).messageId), "Edited question")
    }
}
