// Monaco's editor worker (diffs, word ranges), bundled from the local package: no CDN.
import 'monaco-editor/esm/vs/editor/editor.worker.js';
