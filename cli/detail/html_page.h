#pragma once
// The --html page itself (docs/report.md): its frame (verdict, navigation, the data block the
// script reads, the inline style and script of cli/html_assets.h), escaping, and the sections
// every page has (the programs side by side, the text report). cli/html_report.cpp fills it.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/html_assets.h"
#include "cli/html_report.h"
#include "cli/inputs.h"

namespace syncbisim::cli::html {

using nlohmann::json;

// Nothing loads from anywhere: inline style and script only, images as data: URLs.
inline constexpr const char* kCsp =
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";

// A program's text is cut after this many bytes (at a line's end).
inline constexpr std::size_t kMaxProgramBytes = std::size_t{1} << 20;

std::string esc(std::string_view s);     // HTML text and attribute values
std::string script_json(const json& j);  // JSON safe inside <script type="application/json">
json big(std::uint64_t v);               // a number, as a string past 2^53
std::string inline_svg(std::string svg, const std::string& prefix);  // an SVG document inline, ids prefixed
std::string first_line(const std::string& text);
std::vector<std::string> lines_of(const std::string& text);
std::string verdict_class(const std::string& word);  // "ok", "bad", "warn", "unknown"
std::string exit_meaning(int status);

class Page {
 public:
  Page(std::string command, const HtmlSources& in) : command_(std::move(command)), in_(in) {
    // No "syncbisim" version field: the block is the page's own, not a document (docs/report.md).
    data_ = {{"command", command_}, {"traces", json::array()}};
  }

  void verdict(const std::string& word, const std::vector<std::string>& lines, const std::string& meaning) {
    word_ = word;
    std::string h = "<section id=\"summary\" class=\"verdict " + verdict_class(word) + "\">\n";
    h += "<p class=\"verdict-word\" id=\"verdict\">" + esc(word) + "</p>\n";
    for (const auto& l : lines) h += "<p class=\"verdict-line\">" + esc(l) + "</p>\n";
    h += "<p class=\"exit\" id=\"exit-status\">" + esc(meaning) + "</p>\n</section>\n";
    body_ += h;
  }

  // A section with an entry in the navigation bar.
  void section(const std::string& id, const std::string& nav, const std::string& inner, const std::string& cls = "") {
    nav_.emplace_back(id, nav);
    body_ +=
        "<section id=\"" + id + "\"" + (cls.empty() ? "" : " class=\"" + cls + "\"") + ">\n" + inner + "</section>\n";
  }

  json& traces() { return data_["traces"]; }

  std::string html() const {
    const std::string title = "syncbisim " + command_ + ": " + word_;
    std::string o = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    o += "<meta http-equiv=\"Content-Security-Policy\" content=\"" + std::string(kCsp) + "\">\n";
    o += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    o += "<meta name=\"generator\" content=\"syncbisim " + esc(command_) + " --html\">\n";
    o += "<title>" + esc(title) + "</title>\n<link rel=\"icon\" href=\"data:,\">\n";
    o += "<style>" + std::string(html_assets::kStyle) + "</style>\n</head>\n<body>\n";
    o += "<header class=\"top\">\n<h1>syncbisim " + esc(command_) +
         "</h1>\n<p class=\"files\">spec <code id=\"spec-path\">" + esc(in_.spec_path) +
         "</code> &middot; impl <code id=\"impl-path\">" + esc(in_.impl_path) + "</code></p>\n</header>\n";
    o += "<nav class=\"toc\"><a href=\"#summary\">Verdict</a>";
    for (const auto& [id, label] : nav_) o += "<a href=\"#" + id + "\">" + esc(label) + "</a>";
    o += "</nav>\n<main>\n" + body_ + "</main>\n";
    o += "<script type=\"application/json\" id=\"syncbisim-data\">" + script_json(data_) + "</script>\n";
    o += "<script>" + std::string(html_assets::kScript) + "</script>\n</body>\n</html>\n";
    return o;
  }

 private:
  std::string command_;
  HtmlSources in_;
  std::string word_;
  std::string body_;
  std::vector<std::pair<std::string, std::string>> nav_;
  json data_;
};

int write_page(const std::string& path, const Page& page);  // 0, or the input error's status
// `steps`: the page has traces, whose current step's instruction the script marks in both.
void add_programs(Page& page, const HtmlSources& in, const LoadedPair& pair, bool steps);
void add_text(Page& page, const std::string& text, const std::string& what);  // the CLI's report, folded

}  // namespace syncbisim::cli::html
