// Starts the page. Kept out of index.html so the Content-Security-Policy
// can forbid inline scripts; trunk writes the hashed file names into the
// data attributes of the script tag that loads this file.
const tag = document.querySelector("script[data-js][data-wasm]");
const bindings = await import(tag.dataset.js);
await bindings.default({ module_or_path: tag.dataset.wasm });
