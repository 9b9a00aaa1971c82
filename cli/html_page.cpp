// The --html page's frame and common sections (cli/detail/html_page.h).
#include "cli/detail/html_page.h"

#include "formats/load.h"
#include "model/markup.h"
#include "formats/text_format.h"

namespace syncbisim::cli::html {

// ---------------------------------------------------------------------------------------------
// Escaping.

std::string esc(std::string_view s) { return model::escape_markup(s); }

// JSON inside <script type="application/json">: no '<', '>' or '&' at all (so neither "</script"
// nor "<!--" can appear), each written as its \u escape; bytes that are not UTF-8 replaced.
std::string script_json(const json& j) {
  const std::string text = j.dump(-1, ' ', false, json::error_handler_t::replace);
  std::string o;
  o.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '<': o += "\\u003c"; break;
      case '>': o += "\\u003e"; break;
      case '&': o += "\\u0026"; break;
      default: o += c;
    }
  }
  return o;
}

// A number as JSON: past 2^53 a string (JavaScript's numbers would round it).
json big(std::uint64_t v) {
  if (v <= (std::uint64_t{1} << 53)) return v;
  return std::to_string(v);
}

// An SVG document of timing/svg.cpp inline in the page: its XML declaration dropped, its ids
// (pattern and markers) prefixed, so that several pictures on one page keep their own.
std::string inline_svg(std::string svg, const std::string& prefix) {
  if (svg.rfind("<?xml", 0) == 0) {
    const auto end = svg.find("?>");
    if (end != std::string::npos) svg.erase(0, svg.find_first_not_of("\r\n", end + 2));
  }
  for (const char* id : {"stall", "headhl", "head"}) {
    const std::string name = id;
    for (const auto& [from, to] : {std::pair{"id=\"" + name + "\"", "id=\"" + prefix + name + "\""},
                                   std::pair{"url(#" + name + ")", "url(#" + prefix + name + ")"}}) {
      for (std::size_t at = svg.find(from); at != std::string::npos; at = svg.find(from, at + to.size()))
        svg.replace(at, from.size(), to);
    }
  }
  return svg;
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at < text.size()) {
    auto end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    out.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

// What a verdict word looks like: ok (green), bad (red), warn (orange), unknown (grey).
std::string verdict_class(const std::string& word) {
  if (word == "bisimilar" || word == "proved" || word == "finished") return "ok";
  if (word.rfind("inconclusive", 0) == 0 || word.rfind("unknown", 0) == 0 || word == "cut") return "unknown";
  if (word == "over-synchronized" || word == "spec-deadlock" || word.rfind("safe, not exact", 0) == 0 ||
      word.rfind("not exact", 0) == 0 || word == "deadlock")
    return "warn";
  return "bad";
}

std::string exit_meaning(int status) {
  switch (status) {
    case 0: return "exit status 0: it holds";
    case 1: return "exit status 1: a violation was found";
    case 3: return "exit status 3: inconclusive, a bound or a limit was hit before there was an answer";
    default: return "exit status " + std::to_string(status);
  }
}

// ---------------------------------------------------------------------------------------------
// The page.

int write_page(const std::string& path, const Page& page) {
  if (auto s = formats::write_file_atomically(path, page.html()); !s) {
    auto d = s.error();
    d.file = path;
    return input_error(d);
  }
  return 0;
}

// A program in the text format, cut after kMaxProgramBytes at a line's end.
std::string program_text(const model::Program& p, std::string& note) {
  std::string text = formats::write_text(p);
  if (text.size() > kMaxProgramBytes) {
    auto cut = text.rfind('\n', kMaxProgramBytes);
    if (cut == std::string::npos) cut = kMaxProgramBytes;
    note = "the first " + std::to_string(cut) + " of " + std::to_string(text.size()) +
           " bytes (`syncbisim show` prints it whole)";
    text.resize(cut + 1);
  }
  return text;
}

// `steps`: the page has traces, whose current step's instruction the script marks in both.
void add_programs(Page& page, const HtmlSources& in, const LoadedPair& pair, bool steps) {
  std::string h = std::string(
                      "<h2>Programs</h2>\n<p class=\"note\">In the text format, as <code>syncbisim show</code> "
                      "prints them") +
                  (steps ? "; the instruction of the current step is marked on both sides" : "") +
                  ".</p>\n<div class=\"two\">\n";
  const std::pair<const char*, const formats::LoadedProgram*> sides[] = {{"spec", &pair.spec}, {"impl", &pair.impl}};
  for (const auto& [what, p] : sides) {
    std::string note;
    const auto text = program_text(p->program, note);
    const std::string& path = std::string(what) == "spec" ? in.spec_path : in.impl_path;
    h += "<div class=\"side-program\">\n<h3>" + std::string(std::string(what) == "spec" ? "Spec" : "Impl") + " <code>" +
         esc(path) + "</code></h3>\n";
    if (!note.empty()) h += "<p class=\"note\">" + esc(note) + "</p>\n";
    h += "<pre class=\"program\" id=\"" + std::string(what) + "-text\">" + esc(text) + "</pre>\n</div>\n";
  }
  h += "</div>\n";
  page.section("programs", "Programs", h);
}

// The CLI's report, whole, folded.
void add_text(Page& page, const std::string& text, const std::string& what) {
  page.section("report", "Text report",
               "<h2>Text report</h2>\n<details><summary>" + esc(what) + "</summary>\n<pre class=\"text\">" + esc(text) +
                   "</pre>\n</details>\n");
}

}  // namespace syncbisim::cli::html
