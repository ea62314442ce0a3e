import QtQuick
import QtTest
import Hearth
import HearthTest

// The "Get models" page against the fake hub: search, a repository's files
// with the recommended one and its header facts, a download to the end, and
// a gated repository asking for a token.
TestCase {
    id: testCase

    name: "GetModels"
    when: windowShown
    visible: true
    width: 1000
    height: 720

    Component {
        id: pageComponent

        GetModelsPage {
            width: 960
            height: 680
            browser: HubBrowser {}
        }
    }

    function init() {
        if (TestEnv.startFakeHub() === "")
            skip("python3 or tests/app/fake_hub.py is missing")
    }

    function fileRow(list, name) {
        for (let i = 0; i < list.count; ++i) {
            const item = list.itemAtIndex(i)
            if (item && item.name === name)
                return item
        }
        return null
    }

    function test_searchPickDownload() {
        const page = createTemporaryObject(pageComponent, testCase)
        page.open()
        const field = findChild(page, "searchField")
        field.text = "tiny"
        mouseClick(findChild(page, "searchButton"))
        const results = findChild(page, "resultList")
        tryCompare(results, "count", 1, 10000)
        tryVerify(() => results.itemAtIndex(0) !== null && results.itemAtIndex(0).width > 0, 3000)
        tryVerify(() => page.opened, 3000)
        mouseClick(results.itemAtIndex(0))
        tryCompare(page.browser, "repo", "test/Tiny-GGUF", 3000)
        const files = findChild(page, "fileList")
        tryCompare(files, "count", 3, 10000) // the split set is one entry
        let q4 = null
        tryVerify(() => (q4 = fileRow(files, "tiny-Q4_K_M.gguf")) !== null, 3000)
        verify(q4.recommended, "Q4_K_M is recommended when it fits")
        const facts = findChild(page, "headerFacts")
        tryVerify(() => facts.visible && facts.text.indexOf("llama") >= 0, 10000, "the header was checked")
        verify(facts.text.indexOf("Q4_K_M") >= 0)
        verify(facts.text.indexOf("4096") >= 0)
        verify(page.browser.header.bytesRead < 1000000, "only the header was read")

        mouseClick(findChild(q4, "downloadButton"))
        const downloads = findChild(page, "downloadList")
        tryCompare(downloads, "count", 1, 10000)
        tryCompare(page.browser.downloads, "active", 0, 20000)
        const path = TestEnv.downloadsDir() + "/test/Tiny-GGUF/tiny-Q4_K_M.gguf"
        verify(TestEnv.fileExists(path), path)
    }

    function test_gatedAsksForToken() {
        const page = createTemporaryObject(pageComponent, testCase)
        page.open()
        page.browser.openRepo("test/Private-GGUF")
        const tokenRow = findChild(page, "tokenRow")
        tryVerify(() => tokenRow.visible, 10000)
        verify(page.browser.error.indexOf("token") >= 0, page.browser.error)
    }
}
