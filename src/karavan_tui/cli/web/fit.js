// Karavan's page on small and dense screens (phones), on top of textual-serve's textual.js.
//
// * The canvas is drawn in device pixels and scaled down by CSS.  xterm.js sizes it by a
//   ResizeObserver's device-pixel box where the browser offers one, and some browsers
//   report that box in CSS pixels at a device pixel ratio of 2 or 3: the canvas is then a
//   third of the size its cells are drawn at and only a corner of the terminal shows.
//   Refusing that box makes xterm.js size the canvas from its own cell measurements, the
//   path it takes wherever the box is unknown.
// * The font is sized for the screen: the largest size, up to the one asked for, that gives
//   at least 80x24 cells on a landscape screen and 40x30 on a portrait one (where Karavan
//   stacks its tables), chosen before the terminal opens and again when the screen turns.
(() => {
  "use strict";
  const FAMILY = "'Roboto Mono', Monaco, 'Courier New', monospace";
  const SMALLEST = 9;
  const LANDSCAPE = { cols: 80, rows: 24 };
  const PORTRAIT = { cols: 40, rows: 30 };

  const Observer = window.ResizeObserver;
  if (Observer) {
    window.ResizeObserver = class extends Observer {
      observe(target, options) {
        if (options && String(options.box) === "device-pixel-content-box") {
          throw new TypeError("device-pixel boxes are measured by the terminal itself");
        }
        return super.observe(target, options);
      }
    };
  }

  // One cell of the font at `size` CSS pixels, as xterm.js measures it (32 "W"s in a span)
  // and rounds it to whole device pixels.
  function cell(size) {
    const span = document.createElement("span");
    span.style.cssText = `position:absolute;visibility:hidden;white-space:pre;
      font-family:${FAMILY};font-size:${size}px;line-height:normal`;
    span.textContent = "W".repeat(32);
    document.body.appendChild(span);
    const width = span.getBoundingClientRect().width / 32;
    const height = Math.ceil(span.getBoundingClientRect().height);
    span.remove();
    const ratio = window.devicePixelRatio || 1;
    return {
      width: Math.floor(width * ratio) / ratio,
      height: Math.ceil(height * ratio) / ratio,
    };
  }

  // The largest font size from `asked` down that fits the screen's grid in `box`.
  function sizeFor(asked, box) {
    const want = box.width > box.height ? LANDSCAPE : PORTRAIT;
    for (let size = asked; size > SMALLEST; size--) {
      const { width, height } = cell(size);
      if (box.width / width >= want.cols && box.height / height >= want.rows) return size;
    }
    return SMALLEST;
  }

  // textual.js keeps its terminal to itself: its client object is caught as it stores its
  // fit addon, the one moment a page script can see it.
  const clients = [];
  Object.defineProperty(Object.prototype, "fitAddon", {
    configurable: true,
    set(value) {
      Object.defineProperty(this, "fitAddon", { value, writable: true, configurable: true });
      if (this.terminal && this.element) clients.push(this);
    },
  });

  function refit() {
    for (const client of clients) {
      const asked = Number(client.element.dataset.askedFontSize);
      const size = sizeFor(asked, client.element.getBoundingClientRect());
      if (client.terminal.options.fontSize !== size) {
        client.terminal.options.fontSize = size;
        client.fit();
      }
    }
  }

  const start = window.onload; // textual.js's, which opens the terminals
  window.onload = async (event) => {
    await document.fonts.load(`16px ${FAMILY}`).catch(() => null);
    for (const element of document.querySelectorAll(".textual-terminal")) {
      const asked = Number(element.dataset.fontSize) || 16;
      element.dataset.askedFontSize = String(asked);
      element.dataset.fontSize = String(sizeFor(asked, element.getBoundingClientRect()));
    }
    if (start) start.call(window, event);
    delete Object.prototype.fitAddon;
    window.addEventListener("resize", refit);
  };
})();
