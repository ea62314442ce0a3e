#!/usr/bin/env node
// Regenerates tests/data/highlight/golden/*.html: Prism.highlight() output
// under Node for every sample in tests/data/highlight/samples (file
// NAME.LANG.txt, LANG a Prism language id), with exactly the components Hearth bundles
// (app/lib/highlight/prism-components.txt) loaded in the same order.
// test_highlight checks that Prism in Qt's QJSEngine (with Hearth's RegExp
// `source` shim) produces byte-identical HTML.
//
//   node scripts/refs/prism_golden.js      (after scripts/setup: npm ci)
'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');

const root = path.resolve(__dirname, '..', '..');
const components = path.join(root, 'third_party/npm/node_modules/prismjs/components');
const order = fs.readFileSync(path.join(root, 'app/lib/highlight/prism-components.txt'), 'utf8')
    .split('\n').map(s => s.trim()).filter(s => s && !s.startsWith('#'));

// Global scope, as QJSEngine evaluates each file.
const context = vm.createContext({});
for (const name of ['core', ...order])
    vm.runInContext(fs.readFileSync(path.join(components, `prism-${name}.min.js`), 'utf8'), context);

const samples = path.join(root, 'tests/data/highlight/samples');
const golden = path.join(root, 'tests/data/highlight/golden');
fs.mkdirSync(golden, { recursive: true });
for (const file of fs.readdirSync(samples).sort()) {
    const language = path.extname(path.basename(file, '.txt')).slice(1);
    const code = fs.readFileSync(path.join(samples, file), 'utf8');
    context.code = code;
    context.language = language;
    const html = vm.runInContext('Prism.highlight(code, Prism.languages[language], language)', context);
    fs.writeFileSync(path.join(golden, `${path.basename(file, '.txt')}.html`), html);
    console.log(`${file}: ${html.length} bytes`);
}
