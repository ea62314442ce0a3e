// Fixes RegExp.prototype.source in Qt 6.4's JavaScript engine (Hearth).
//
// The engine escapes every '/' of a pattern when it builds `source`, even a
// '/' the pattern already escaped: /a\/b/.source gives "a\\/b" where the
// specification (and Node) give "a\/b". Prism rebuilds its greedy patterns
// with new RegExp(pattern.source, flags), so those patterns change meaning:
// "\\/" matches a backslash and then ends... and block comments come out as
// operators. This getter undoes the engine's escaping (it inserts exactly one
// backslash before each '/') and then escapes like the specification's
// EscapeRegExpPattern as V8 does it: only a '/' that is neither escaped nor
// inside a character class. Installed only where the engine shows the bug.
(function () {
    var descriptor = Object.getOwnPropertyDescriptor(RegExp.prototype, 'source');
    if (!descriptor || typeof descriptor.get !== 'function')
        return;
    var engineSource = descriptor.get;
    if (engineSource.call(/a\/b/) !== 'a\\\\/b')
        return; // this engine is right

    function escapeLikeV8(pattern) {
        var out = '';
        var inClass = false;
        for (var i = 0; i < pattern.length; ++i) {
            var c = pattern.charAt(i);
            if (c === '\\' && i + 1 < pattern.length) {
                out += c + pattern.charAt(++i);
                continue;
            }
            if (c === '[')
                inClass = true;
            else if (c === ']')
                inClass = false;
            else if (c === '/' && !inClass)
                c = '\\/';
            else if (c === '\n')
                c = '\\n';
            else if (c === '\r')
                c = '\\r';
            out += c;
        }
        return out;
    }

    Object.defineProperty(RegExp.prototype, 'source', {
        configurable: true,
        get: function () {
            var raw = engineSource.call(this).replace(/\\\//g, '/');
            return raw === '' ? '(?:)' : escapeLikeV8(raw);
        }
    });
})();
