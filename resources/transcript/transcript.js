// The transcript page: loaded once, then fed items over QWebChannel by
// TranscriptBridge (app/desktop/transcript_bridge.h). Every string from the
// agent goes in as text; the only HTML is cmark-gfm's rendering of
// markdown, made on the C++ side with raw HTML disabled, and highlight.js's
// spans (code.js), both cleaned here once more against an allowlist before
// they touch the document.
"use strict";

const allowedTags = new Set(["P", "EM", "STRONG", "CODE", "PRE", "A", "UL", "OL", "LI",
    "BLOCKQUOTE", "H1", "H2", "H3", "H4", "H5", "H6", "TABLE", "THEAD", "TBODY", "TR", "TH",
    "TD", "DEL", "HR", "BR", "INPUT", "SPAN"]);
const allowedAttributes = new Set(["href", "title", "align", "class", "type", "checked",
    "disabled"]);

function safeHref(value) {
    return /^(https?:|mailto:|#)/i.test(value.trim());
}

function clean(node) {
    for (const child of Array.from(node.children)) {
        if (!allowedTags.has(child.tagName) ||
            (child.tagName === "INPUT" && child.getAttribute("type") !== "checkbox")) {
            child.replaceWith(document.createTextNode(child.textContent));
            continue;
        }
        for (const attribute of Array.from(child.attributes)) {
            const name = attribute.name.toLowerCase();
            if (!allowedAttributes.has(name) || (name === "href" && !safeHref(attribute.value)))
                child.removeAttribute(attribute.name);
        }
        clean(child);
    }
}

function markdown(html) {
    const template = document.createElement("template");
    template.innerHTML = html; // a template's content is inert: nothing runs or loads
    clean(template.content);
    const div = document.createElement("div");
    div.className = "text";
    div.appendChild(template.content);
    return div;
}

function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className)
        node.className = className;
    if (text !== undefined)
        node.textContent = text;
    return node;
}

const turns = new Map();   // turn id -> its section
const tools = new Map();   // tool_use id -> its <details>

function turnSection(id) {
    let section = turns.get(id);
    if (!section) {
        section = element("section", "turn");
        section.dataset.turn = id;
        document.getElementById("turns").appendChild(section);
        turns.set(id, section);
    }
    return section;
}

function render(item) {
    switch (item.type) {
    case "prompt":
        return element("div", "prompt", item.text);
    case "text": {
        const text = markdown(item.html);
        highlightWhenSeen(text);
        return text;
    }
    case "thinking":
        return element("div", "thinking", item.text);
    case "tool": {
        const details = element("details", "tool");
        details.dataset.tool = item.id;
        details.dataset.name = item.name || "";
        details.appendChild(element("summary", "", item.summary));
        const input = element("pre", "input");
        fillToolInput(details, input, item);
        details.appendChild(input);
        tools.set(item.id, details);
        return details;
    }
    case "tool_result": {
        const output = element("pre", "output", item.text);
        const details = tools.get(item.id);
        if (details) {
            details.appendChild(output);
            if (item.error)
                details.classList.add("error");
            return null;
        }
        return output;
    }
    case "connector":
        return connectorCall(item);
    case "footer":
        return element("div", "footer", item.text);
    case "error":
        return element("div", "error", item.text);
    default:
        return element("div", "note" + (item.denied ? " denied" : ""), item.text);
    }
}

// The host's line for a connector call (method, path, HTTP status) goes on
// the summary of the agent's newest call of that tool not yet marked (an
// MCP client may prefix the name: mcp__arizuko__<tool>); alone otherwise.
function connectorCall(item) {
    const line = element("span", "connector" + (item.error ? " error" : ""), item.text);
    const calls = Array.from(tools.values()).reverse();
    const call = calls.find(d => !d.dataset.connector &&
        (d.dataset.name === item.tool || d.dataset.name.endsWith("__" + item.tool)));
    if (!call)
        return element("div", line.className, item.text);
    call.dataset.connector = item.seq;
    call.querySelector("summary").prepend(line);
    return null;
}

function renderInto(parent, item) {
    const node = render(item);
    if (node) {
        node.dataset.seq = item.seq;
        node.dataset.type = item.type;
        parent.appendChild(node);
    }
}

// A turn's changes, read from the home's history after the turn: once per
// turn (a new reading replaces the old), before its closing line.
function showChanges(item) {
    const section = turns.get(item.turn);
    if (!section)
        return;
    const node = changesBlock(item);
    node.dataset.seq = item.seq;
    node.dataset.type = item.type;
    const shown = section.querySelector(":scope > .changes");
    if (shown)
        shown.replaceWith(node);
    else
        section.insertBefore(node, section.querySelector(":scope > .footer"));
}

// Whether the page follows its end: a topic opens at its newest turn, and
// stays there as it grows or as the view changes size (the window resized,
// a bar shown above the prompt), until the reader scrolls up.
let following = true;
const atEnd = () => window.innerHeight + window.scrollY >= document.body.scrollHeight - 40;
const toEnd = () => window.scrollTo(0, document.body.scrollHeight);
window.addEventListener("scroll", () => { following = atEnd(); }, {passive: true});
window.addEventListener("resize", () => { if (following) toEnd(); });

function append(items) {
    for (const item of items) {
        if (item.type === "changes")
            showChanges(item);
        else
            renderInto(turnSection(item.turn), item);
    }
    if (following)
        toEnd();
}

// An earlier page, oldest first: the part of a turn already shown gets its
// earlier events above them, older turns go above every section, and what
// the reader was looking at stays where it was.
function prepend(items) {
    const slices = [];  // [turn id, fragment], in order
    for (const item of items) {
        if (slices.length === 0 || slices[slices.length - 1][0] !== item.turn)
            slices.push([item.turn, document.createDocumentFragment()]);
        renderInto(slices[slices.length - 1][1], item);
    }
    const container = document.getElementById("turns");
    const height = document.body.scrollHeight;
    for (const [id, fragment] of slices.reverse()) {
        let section = turns.get(id);
        if (!section) {
            section = element("section", "turn");
            section.dataset.turn = id;
            turns.set(id, section);
            container.insertBefore(section, container.firstChild);
        }
        section.insertBefore(fragment, section.firstChild);
    }
    window.scrollBy(0, document.body.scrollHeight - height);
}

function reset(hasEarlier) {
    following = true;
    document.getElementById("turns").replaceChildren();
    turns.clear();
    tools.clear();
    codeInView.disconnect(); // blocks never seen are gone with the page
    document.getElementById("earlier").hidden = !hasEarlier;
}

// The page's own words come from the window, translated.
function showTexts(texts) {
    document.documentElement.lang = texts.lang;
    document.title = texts.title;
    document.getElementById("transcript").setAttribute("aria-label", texts.transcript);
    document.getElementById("earlier").textContent = texts.earlier;
    document.getElementById("empty").textContent = texts.empty;
}

document.addEventListener("DOMContentLoaded", () => {
    new QWebChannel(qt.webChannelTransport, channel => {
        const bridge = channel.objects.bridge;
        showTexts(bridge.texts);
        // Appends arrive in bursts while a turn streams: they are drawn
        // once per animation frame.
        let pending = [];
        bridge.appended.connect(items => {
            if (pending.length === 0)
                requestAnimationFrame(() => { const batch = pending; pending = []; append(batch); });
            pending.push(...items);
        });
        // One request for an earlier page at a time, by the button or by
        // scrolling up at the top (the wheel or the keys: a reset that
        // empties the page scrolls too, and must not load anything).
        let asking = false;
        const earlier = document.getElementById("earlier");
        const askEarlier = () => {
            if (asking || earlier.hidden)
                return;
            asking = true;
            bridge.requestEarlier();
        };
        bridge.prepended.connect((items, more) => {
            prepend(items);
            earlier.hidden = !more;
            asking = false;
        });
        bridge.reset.connect(hasEarlier => { pending = []; asking = false; reset(hasEarlier); });
        earlier.addEventListener("click", askEarlier);
        const atTop = () => window.scrollY < 40;
        window.addEventListener("wheel", event => { if (event.deltaY < 0 && atTop()) askEarlier(); },
                                {passive: true});
        window.addEventListener("keydown", event => {
            if (["ArrowUp", "PageUp", "Home"].includes(event.key) && atTop())
                askEarlier();
        });
        bridge.pageReady();
    });
});
