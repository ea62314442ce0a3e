// Hearth's side of Prism, evaluated after prism-core and the components.
// hearthTokens() flattens Prism's token tree into leaf runs for the C++
// side: a JSON array [start, length, "outer inner alias", ...] over UTF-16
// offsets of `code`; runs outside any token are left out.
function hearthHasLanguage(language) {
    return Object.prototype.hasOwnProperty.call(Prism.languages, language) &&
        typeof Prism.languages[language] === 'object';
}

function hearthTokens(code, language) {
    if (!hearthHasLanguage(language))
        return '[]';
    var out = [];
    var pos = 0;
    function walk(token, kinds) {
        if (typeof token === 'string') {
            var n = out.length;
            if (kinds !== '') {
                if (n >= 3 && out[n - 1] === kinds && out[n - 3] + out[n - 2] === pos)
                    out[n - 2] += token.length; // same kinds as the run before: extend it
                else
                    out.push(pos, token.length, kinds);
            }
            pos += token.length;
            return;
        }
        if (Array.isArray(token)) {
            for (var i = 0; i < token.length; ++i)
                walk(token[i], kinds);
            return;
        }
        var own = token.type;
        if (token.alias)
            own += ' ' + (Array.isArray(token.alias) ? token.alias.join(' ') : token.alias);
        walk(token.content, kinds === '' ? own : kinds + ' ' + own);
    }
    walk(Prism.tokenize(code, Prism.languages[language]), '');
    return JSON.stringify(out);
}

function hearthHighlightHtml(code, language) {
    return Prism.highlight(code, Prism.languages[language], language);
}
