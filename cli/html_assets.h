#pragma once
// The --html page's style and script (docs/report.md), inlined into every page: the page loads
// nothing (its Content-Security-Policy forbids it). The script renders the data block the page
// carries (the trace tables' stepping, the state panel); without it the page still shows all
// but the stepping.
namespace syncbisim::cli::html_assets {

extern const char* const kStyle;
extern const char* const kScript;

}  // namespace syncbisim::cli::html_assets
