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

    function test_6_regenerateKeepsTheEarlierReply() {
        loadModel()
        const view = createTemporaryObject(viewComponent, testCase)
        const list = findChild(view, "messageList")
        send(view, "Give me an answer")
        waitForReply()
        const first = TestEnv.lastMessageText()
        const regenerate = findChild(list.itemAtIndex(1), "regenerateButton")
        tryVerify(() => regenerate.visible && regenerate.enabled)
        // The list settles first (a click on a row still moving is lost).
        wait(100)
        expectNewReply(() => mouseClick(regenerate))
        compare(list.count, 2, "the reply was replaced, not added")
        const second = TestEnv.lastMessageText()
        verify(second !== first, "a new seed gives a new reply")
        // The first reply is kept: ‹ 2/2 ›, and ‹ goes back to it.
        let reply = null
        tryVerify(() => (reply = list.itemAtIndex(1)) !== null)
        compare(findChild(reply, "alternativeLabel").text, "2/2")
        const previous = findChild(reply, "previousAlternative")
        tryVerify(() => previous.visible && previous.enabled)
        verify(!findChild(reply, "nextAlternative").enabled, "nothing after the newest")
        // clicked(), not a mouse click: under load the row may still be
        // moving when the click lands, and the click is lost.
        previous.clicked()
        tryVerify(() => TestEnv.lastMessageText() === first, 3000, "the first reply is shown again")
        tryVerify(() => (reply = list.itemAtIndex(1)) !== null && findChild(reply, "alternativeLabel").text === "1/2")
        findChild(reply, "nextAlternative").clicked()
        tryVerify(() => TestEnv.lastMessageText() === second, 3000, "and the second")
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
        // The original question and its reply are a branch to go back to.
        let question = null
        tryVerify(() => (question = list.itemAtIndex(0)) !== null)
        compare(findChild(question, "alternativeLabel").text, "2/2")
        findChild(question, "previousAlternative").clicked()
        tryVerify(() => list.itemAtIndex(0) && TestEnv.session.chat.messages.textOf(list.itemAtIndex(0).messageId)
                  === "Original question", 3000, "the first branch is back")
        compare(list.count, 2, "with its reply")
    }

    // Another conversation while a reply is being written: the reply goes
    // on in the background, into its own conversation, and the message box
    // says why it cannot send meanwhile.
    function test_8_replyGoesOnInTheBackground() {
        loadModel()
        const view = createTemporaryObject(viewComponent, testCase)
        send(view, "Write something long about rivers")
        tryVerify(() => TestEnv.session.chat.generating)
        const first = TestEnv.conversationId()
        TestEnv.session.chat.newConversation()
        verify(TestEnv.session.chat.generating, "still writing")
        verify(TestEnv.session.chat.replyElsewhere, "for the conversation left")
        const input = findChild(view, "composerInput")
        input.text = "meanwhile"
        const hint = findChild(view, "composerHint")
        tryVerify(() => hint.visible && hint.text.indexOf("another conversation") >= 0, 2000, hint.text)
        input.text = ""
        waitForReply()
        TestEnv.session.chat.openConversation(first)
        compare(TestEnv.session.chat.messages.count, 2)
        verify(TestEnv.lastMessageText().length > 20, "the reply was written in full")
    }

    // With no model, Enter says why nothing was sent.
    function test_9_enterWithoutAModelSaysWhy() {
        TestEnv.session.loader.unload()
        const view = createTemporaryObject(viewComponent, testCase)
        const input = findChild(view, "composerInput")
        input.forceActiveFocus()
        input.text = "hello?"
        const hint = findChild(view, "composerHint")
        verify(hint.visible, "typing without a model already says why")
        verify(!findChild(view, "sendButton").enabled)
        verify(findChild(view, "sendButton").opacity < 1, "and Send looks disabled")
        keyClick(Qt.Key_Return)
        compare(input.text, "hello?", "nothing was sent")
        verify(hint.text.indexOf("No model loaded") >= 0, hint.text)
        compare(hint.color, Theme.warning, "Enter makes it a warning")
        input.text = ""
    }

    // A model without a chat template says so where it cannot be missed,
    // until dismissed; the next model starts clear.
    function test_91_noChatTemplateIsFlagged() {
        const view = createTemporaryObject(viewComponent, testCase)
        const notice = findChild(view, "modelNotice")
        const path = TestEnv.writeModel("Base Model", false)
        verify(path.length > 0)
        TestEnv.session.library.openPath(path)
        tryVerify(() => TestEnv.session.loader.loaded && TestEnv.session.loader.modelPath === path, 5000)
        tryVerify(() => notice.visible, 2000, "a notice")
        verify(notice.text.indexOf("no chat template") >= 0, notice.text)
        mouseClick(findChild(notice, "bannerDismiss"))
        verify(!notice.visible, "dismissed")
        TestEnv.session.library.openPath(TestEnv.modelPath)
        tryVerify(() => TestEnv.session.loader.modelPath === TestEnv.modelPath && TestEnv.session.loader.loaded, 5000)
        verify(!notice.visible, "a model with a template has nothing to say")
    }

    // The gauges show the conversation on screen: a new (or deleted) one
    // has no figures, reopening one brings its reply's back.
    function test_92_gaugesFollowTheConversation() {
        loadModel()
        const view = createTemporaryObject(viewComponent, testCase)
        send(view, "Some figures, please")
        waitForReply()
        const gauges = TestEnv.session.gauges
        verify(gauges.tokensPerSecondText !== "–", gauges.tokensPerSecondText)
        const id = TestEnv.conversationId()
        TestEnv.session.chat.newConversation()
        compare(gauges.tokensPerSecondText, "–", "a new chat has none")
        compare(gauges.contextUsed, 0)
        TestEnv.session.chat.openConversation(id)
        verify(gauges.tokensPerSecondText !== "–", "the reply's figures are back")
    }
}
