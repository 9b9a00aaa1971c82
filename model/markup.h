#pragma once
// Text inside XML or HTML (the SVG timelines, the --html page): the five characters markup gives a
// meaning escaped, so that a name or a file path shows as written and never as markup.
#include <string>
#include <string_view>

namespace syncbisim::model {

std::string escape_markup(std::string_view s);  // & < > " ' as &amp; &lt; &gt; &quot; &#39;

}  // namespace syncbisim::model
