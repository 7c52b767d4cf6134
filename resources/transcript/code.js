// Code in the transcript page, highlighted with highlight.js (the pinned npm
// package the build bundles: app/desktop/CMakeLists.txt): code blocks in the
// agent's text once they scroll into view, a file a tool writes, an edit and
// a turn's changes as diffs once their fold is opened. Nothing folded or
// off screen costs anything. highlight.js escapes the code it is given; its
// HTML (spans with classes) still goes through the page's allowlist (clean
// in transcript.js) before it touches the document.
"use strict";

// Longer code stays plain text: highlighting is linear, but not free.
const highlightLimit = 256 * 1024;
// Guessing a language runs every grammar: only for short blocks.
const guessLimit = 2048;

function escapeHtml(text) {
    return text.replace(/[&<>"']/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;",
                                           "\"": "&quot;", "'": "&#39;"})[c]);
}

const haveHighlighter = () => typeof hljs !== "undefined";

// highlight.js's HTML of `text` in `language` (a name or an alias), guessed
// when `language` is "", escaped plain text when unknown or too long.
function highlightedHtml(text, language) {
    if (!haveHighlighter() || text.length > highlightLimit)
        return escapeHtml(text);
    try {
        if (language && hljs.getLanguage(language))
            return hljs.highlight(text, {language, ignoreIllegals: true}).value;
        if (language === "" && text.length <= guessLimit)
            return hljs.highlightAuto(text).value;
    } catch (error) {
        console.warn("highlighting failed: " + error);
    }
    return escapeHtml(text);
}

// Replaces `node`'s content with `html` made only of highlight spans.
function showHtml(node, html) {
    const template = document.createElement("template");
    template.innerHTML = html; // inert until cleaned and adopted
    clean(template.content);
    node.replaceChildren(template.content);
}

// A file's language from its name ("" when highlight.js has none for it).
const languageOfName = {"makefile": "makefile", "gnumakefile": "makefile",
                        "dockerfile": "dockerfile", "cmakelists.txt": "cmake"};
function languageOfPath(path) {
    const name = (path || "").split("/").pop().toLowerCase();
    if (languageOfName[name])
        return languageOfName[name];
    const dot = name.lastIndexOf(".");
    const extension = dot > 0 ? name.slice(dot + 1) : "";
    return extension && haveHighlighter() && hljs.getLanguage(extension) ? extension : "";
}

// A fenced code block of the agent's text: by its fence's language, guessed
// when the fence names none, plain when it names one highlight.js lacks.
function highlightCodeBlock(code) {
    const fence = /(?:^|\s)language-(\S+)/.exec(code.className);
    code.classList.add("hljs");
    const language = fence ? fence[1].toLowerCase() : "";
    showHtml(code, highlightedHtml(code.textContent, fence && !hljs.getLanguage(language)
                                                         ? "plaintext" : language));
}

const codeInView = new IntersectionObserver(entries => {
    for (const entry of entries) {
        if (entry.isIntersecting) {
            codeInView.unobserve(entry.target);
            highlightCodeBlock(entry.target);
        }
    }
}, {rootMargin: "400px 0px"});

function highlightWhenSeen(container) {
    if (!haveHighlighter())
        return;
    for (const code of container.querySelectorAll("pre > code"))
        codeInView.observe(code);
}

// Calls `fill` the first time `details` is opened.
function fillWhenOpened(details, fill) {
    const opened = () => {
        if (!details.open)
            return;
        details.removeEventListener("toggle", opened);
        fill();
    };
    details.addEventListener("toggle", opened);
}

function showCode(pre, text, language) {
    const code = element("code", "hljs");
    showHtml(code, highlightedHtml(text, language));
    pre.replaceChildren(code);
}

// highlight.js's HTML cut into lines, each closing the spans still open at
// its end and opening them again on the next, so a comment or string over
// several lines keeps its colour on each.
function htmlLines(html) {
    const lines = [];
    const open = [];
    let line = "";
    let from = 0;
    const tokens = /<span class="[^"]*">|<\/span>|\n/g;
    for (let token; (token = tokens.exec(html));) {
        line += html.slice(from, token.index);
        from = tokens.lastIndex;
        if (token[0] === "\n") {
            lines.push(line + "</span>".repeat(open.length));
            line = open.join("");
        } else {
            if (token[0] === "</span>")
                open.pop();
            else
                open.push(token[0]);
            line += token[0];
        }
    }
    lines.push(line + html.slice(from) + "</span>".repeat(open.length));
    return lines;
}

// A diff as lines {sign, text}: sign " " (context), "-", "+", "@" (a hunk's
// head) or "#" (a file's head, git's notes). The code of each side is
// highlighted as a whole in `language`, then each line takes its own.
function showDiff(pre, lines, language) {
    const side = signs => {
        const text = lines.filter(line => signs.includes(line.sign)).map(line => line.text);
        return htmlLines(highlightedHtml(text.join("\n"), language || "plaintext"));
    };
    const before = side(" -");
    const after = side(" +");
    let b = 0;
    let a = 0;
    const classes = {"-": "hljs-deletion", "+": "hljs-addition", "@": "hljs-meta",
                     "#": "hljs-comment", " ": ""};
    const html = lines.map(line => {
        let code;
        if (line.sign === "-")
            code = before[b++];
        else if (line.sign === "+")
            code = after[a++];
        else if (line.sign === " ") {
            b++;
            code = after[a++];
        } else
            code = escapeHtml(line.text);
        const sign = line.sign === " " || line.sign === "-" || line.sign === "+" ? line.sign : "";
        return "<span class=\"diff-line " + classes[line.sign] + "\">" + sign + code + "</span>";
    });
    const code = element("code", "hljs diff");
    showHtml(code, html.join("\n"));
    pre.replaceChildren(code);
}

// A unified diff's text (git's, from the home's history) as diff lines.
function unifiedDiffLines(text) {
    let inHunk = false;
    return text.replace(/\n$/, "").split("\n").map(line => {
        if (line.startsWith("@@")) {
            inHunk = true;
            return {sign: "@", text: line};
        }
        if (line.startsWith("diff "))
            inHunk = false;
        const sign = line.charAt(0);
        if (inHunk && (sign === " " || sign === "-" || sign === "+"))
            return {sign, text: line.slice(1)};
        return {sign: "#", text: line};
    });
}

// Old and new text of an edit as diff lines: the lines both keep, the old
// ones it removes, the new ones it adds (a longest common subsequence of
// lines; past a size, every old line out and every new line in).
function editDiffLines(oldText, newText) {
    const before = oldText.split("\n");
    const after = newText.split("\n");
    let start = 0;
    while (start < before.length && start < after.length && before[start] === after[start])
        ++start;
    let end = 0;
    while (end < before.length - start && end < after.length - start &&
           before[before.length - 1 - end] === after[after.length - 1 - end])
        ++end;
    const x = before.slice(start, before.length - end);
    const y = after.slice(start, after.length - end);
    const middle = [];
    if (x.length * y.length > 250000) {
        x.forEach(text => middle.push({sign: "-", text}));
        y.forEach(text => middle.push({sign: "+", text}));
    } else {
        // common[i][j]: the longest common subsequence of x[i..] and y[j..].
        const common = Array.from({length: x.length + 1}, () => new Uint32Array(y.length + 1));
        for (let i = x.length - 1; i >= 0; --i)
            for (let j = y.length - 1; j >= 0; --j)
                common[i][j] = x[i] === y[j] ? common[i + 1][j + 1] + 1
                                             : Math.max(common[i + 1][j], common[i][j + 1]);
        let i = 0;
        let j = 0;
        while (i < x.length || j < y.length) {
            if (i < x.length && j < y.length && x[i] === y[j]) {
                middle.push({sign: " ", text: x[i++]});
                ++j;
            } else if (i < x.length && (j === y.length || common[i + 1][j] >= common[i][j + 1]))
                middle.push({sign: "-", text: x[i++]});
            else
                middle.push({sign: "+", text: y[j++]});
        }
    }
    const context = text => ({sign: " ", text});
    return before.slice(0, start).map(context).concat(middle,
                                                      after.slice(after.length - end).map(context));
}

// A tool call's input, drawn when its fold is first opened: a file it
// writes as highlighted code, an edit as a diff, anything else as JSON.
function fillToolInput(details, pre, item) {
    if (item.write)
        fillWhenOpened(details, () => showCode(pre, item.write.content,
                                               languageOfPath(item.write.path)));
    else if (item.edits)
        fillWhenOpened(details, () => showDiff(
            pre, item.edits.flatMap((edit, index) =>
                (index ? [{sign: "@", text: "\u22ef"}] : []).concat(
                    editDiffLines(edit.old, edit.new))),
            languageOfPath(item.path)));
    else
        pre.textContent = item.input;
}

// The files a turn changed in the home, each opening to its diff.
function changesBlock(item) {
    const block = element("div", "changes");
    block.appendChild(element("div", "changes-title", item.title));
    for (const file of item.files) {
        const summary = element("summary");
        summary.appendChild(element("span", "change-kind " + file.kind, file.label));
        summary.appendChild(document.createTextNode(" " + file.path));
        if (file.note)
            summary.appendChild(element("span", "change-note", " \u2014 " + file.note));
        const details = element("details", "change");
        details.dataset.path = file.path;
        details.dataset.kind = file.kind;
        details.appendChild(summary);
        if (file.diff) {
            const pre = element("pre", "diff");
            details.appendChild(pre);
            fillWhenOpened(details, () => showDiff(pre, unifiedDiffLines(file.diff),
                                                   languageOfPath(file.path)));
        } else {
            details.classList.add("empty");
        }
        block.appendChild(details);
    }
    return block;
}
