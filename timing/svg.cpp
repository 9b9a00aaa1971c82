// Drawing a Timeline as plain SVG 1.1 (docs/timing.md "Pictures"): no script, no CSS beyond
// presentation attributes, so rsvg-convert and any viewer show the same picture.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "model/markup.h"
#include "timing/svg.h"

namespace syncbisim::timing {

namespace {

struct Palette {
  const char* fill;
  const char* stroke;
};
constexpr Palette kLane[] = {{"#cfe0f7", "#3b6fb6"}, {"#fbd9bf", "#c0621b"}, {"#cdebcf", "#2e8540"},
                             {"#e3d5f2", "#6a42a0"}, {"#c9ecec", "#1f8585"}, {"#ead9c6", "#86592d"},
                             {"#f6d3e5", "#b03a78"}, {"#e6e9c3", "#7a7d1f"}};
constexpr const char* kFont = "DejaVu Sans, Verdana, sans-serif";

std::string esc(const std::string& s) { return model::escape_markup(s); }

std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", v);
  return b;
}

// 1, 2 or 5 times a power of ten, giving about `want` ticks over `span`.
double nice_step(double span, double want) {
  const double raw = span / want;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * p >= raw) return m * p;
  return 10 * p;
}

std::string tick_text(double v) {
  char b[32];
  if (v >= 1e6 && std::fmod(v, 1e5) == 0) std::snprintf(b, sizeof b, "%.1fM", v / 1e6);
  else if (v >= 1e4 && std::fmod(v, 1e3) == 0) std::snprintf(b, sizeof b, "%.0fk", v / 1e3);
  else std::snprintf(b, sizeof b, "%.0f", v);
  return b;
}

double text_width(const std::string& s, double size) { return static_cast<double>(s.size()) * size * 0.6; }

class Drawer {
 public:
  explicit Drawer(const Timeline& t) : t_(t) {
    span_ = std::max(1e-9, t.t1 - t.t0);
    // Wide enough that a typical box holds its label, within reason.
    std::vector<double> widths;
    for (const auto& b : t.boxes) widths.push_back(std::max(b.end - b.start, 1e-9));
    double pw = 960;
    if (!widths.empty()) {
      std::nth_element(widths.begin(), widths.begin() + static_cast<std::ptrdiff_t>(widths.size() / 2), widths.end());
      const double median = widths[widths.size() / 2];
      pw = std::clamp(44.0 * span_ / median, 960.0, 3600.0);
    }
    pw_ = pw;
    rows();
    top_ = 118;
    plot_h_ = lane_h_ * static_cast<double>(std::max<std::size_t>(1, t.lanes.size()));
    width_ = left_ + pw_ + right_;
    unnamed_legend();
    // Labels of arrows a person needs to see (a highlighted one) are placed before any other, so
    // that the others make way for them.
    for (const auto& a : t_.arrows)
      if (a.highlight && !a.label.empty()) placed_.push_back(label_box(a).rect);
    height_ = top_ + plot_h_ + 44 + 18.0 * static_cast<double>(t.notes.size() + legend_.size() + 1) + 12;
  }

  std::string draw() {
    out_ += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out_ += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + num(width_) + "\" height=\"" +
            num(height_) + "\" viewBox=\"0 0 " + num(width_) + " " + num(height_) + "\" font-family=\"" + kFont +
            "\">\n";
    defs();
    out_ += "<rect x=\"0\" y=\"0\" width=\"" + num(width_) + "\" height=\"" + num(height_) + "\" fill=\"white\"/>\n";
    text(left_, 22, t_.title, 15, "start", "#111", "bold");
    if (!t_.subtitle.empty()) text(left_, 41, t_.subtitle, 11, "start", "#444");
    legend();
    lanes();
    for (const auto& s : t_.spans)
      if (s.kind == TimelineSpan::Kind::Barrier) span(s);
    for (const auto& s : t_.spans)
      if (s.kind == TimelineSpan::Kind::Stall) span(s);
    for (const auto& s : t_.spans)
      if (s.kind == TimelineSpan::Kind::Sequencer) span(s);
    for (const auto& m : t_.marks) mark(m);
    for (std::size_t i = 0; i < t_.boxes.size(); ++i)
      if (!t_.boxes[i].highlight) box(t_.boxes[i], i);
    for (std::size_t i = 0; i < t_.boxes.size(); ++i)
      if (t_.boxes[i].highlight) box(t_.boxes[i], i);
    for (const auto& b : t_.boxes) tail(b);
    for (const auto& a : t_.arrows)
      if (!a.highlight) arrow(a);
    for (const auto& a : t_.arrows)
      if (a.highlight) arrow(a);
    axis();
    double y = top_ + plot_h_ + 52;
    for (const auto& n : t_.notes) {
      text(left_, y, n, 11, "start", "#333");
      y += 18;
    }
    for (const auto& n : legend_) {
      text(left_, y, n, 11, "start", "#333");
      y += 18;
    }
    if (hidden_labels_ > 0) {
      text(left_, y,
           std::to_string(hidden_labels_) + " dependency label" + (hidden_labels_ == 1 ? "" : "s") +
               " would cover another: hover over an arrow to read it",
           11, "start", "#333");
      y += 18;
    }
    out_ += "</svg>\n";
    return std::move(out_);
  }

 private:
  double x(double v) const { return left_ + (std::clamp(v, t_.t0, t_.t1) - t_.t0) / span_ * pw_; }

  // Boxes of one lane that overlap in time (instances in flight together, in a trace) go on rows
  // of their own, first fit in start order, so that none hides another.
  void rows() {
    row_.assign(t_.boxes.size(), 0);
    lane_rows_.assign(t_.lanes.size(), 1);
    std::vector<std::size_t> order(t_.boxes.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return t_.boxes[a].start < t_.boxes[b].start; });
    std::vector<std::vector<double>> ends(t_.lanes.size());
    for (const auto i : order) {
      const auto& b = t_.boxes[i];
      if (b.lane >= ends.size()) continue;
      auto& e = ends[b.lane];
      std::size_t r = 0;
      while (r < e.size() && e[r] > b.start + 1e-9) ++r;
      if (r == e.size()) e.push_back(0);
      e[r] = b.end;
      row_[i] = r;
      lane_rows_[b.lane] = std::max(lane_rows_[b.lane], e.size());
    }
  }
  // Whether box() writes a box's name inside it (the same rule: the name in 8.5 or 8 px fits).
  bool named(std::size_t i) const {
    const auto& b = t_.boxes[i];
    if (b.highlight) return true;  // named above the box whatever its width
    const double w = std::max(x(b.end), x(b.start) + 2) - x(b.start);
    return text_width(b.label, lane_rows_[b.lane] > 1 ? 8 : 8.5) + 4 <= w;
  }

  // Boxes too narrow for their names are named in a legend under the plot, lane by lane, each
  // name once with how many boxes bear it: "not named in their boxes: E0: load x3, store; ...".
  void unnamed_legend() {
    std::vector<std::vector<std::pair<std::string, std::size_t>>> by_lane(t_.lanes.size());
    std::size_t count = 0;
    for (std::size_t i = 0; i < t_.boxes.size(); ++i) {
      const auto& b = t_.boxes[i];
      if (b.lane >= by_lane.size() || b.label.empty() || named(i)) continue;
      auto& names = by_lane[b.lane];
      auto it = std::find_if(names.begin(), names.end(), [&](const auto& n) { return n.first == b.label; });
      if (it == names.end()) names.emplace_back(b.label, 1);
      else ++it->second;
      ++count;
    }
    if (count == 0) return;
    // Lines as wide as the picture, at most kLegendLines; what does not fit is counted.
    constexpr std::size_t kLegendLines = 4;
    const auto chars = static_cast<std::size_t>(std::max(40.0, (width_ - left_ - right_) / (11 * 0.6)));
    std::string line = "too narrow to be named inside (hover over a box for its tooltip):";
    std::size_t left_out = 0;
    for (std::size_t l = 0; l < by_lane.size(); ++l) {
      bool first = true;
      for (const auto& [name, n] : by_lane[l]) {
        const auto item =
            (first ? " " + t_.lanes[l] + ": " : ", ") + name + (n > 1 ? " \u00d7" + std::to_string(n) : "");
        if (line.size() + item.size() > chars) {
          if (legend_.size() + 1 >= kLegendLines) {
            left_out += n;
            continue;
          }
          legend_.push_back(line);
          line = "   ";
        }
        line += item;
        first = false;
      }
      if (!first) line += ";";
    }
    if (!line.empty() && line.back() == ';') line.pop_back();
    if (left_out > 0) line += "; and " + std::to_string(left_out) + " more boxes";
    legend_.push_back(line);
  }

  // Where an arrow's label goes: one line per '\n'; a highlighted label is a block beside its
  // target, others sit mid-way along the arrow.
  struct LabelBox {
    std::vector<std::string> lines;
    double size = 9, line_h = 13;
    std::array<double, 4> rect{};  // x, y, width, height
  };
  LabelBox label_box(const TimelineArrow& ar) const {
    LabelBox lb;
    for (std::size_t a = 0, b; a <= ar.label.size(); a = b + 1) {
      b = ar.label.find('\n', a);
      if (b == std::string::npos) b = ar.label.size();
      lb.lines.push_back(ar.label.substr(a, b - a));
    }
    lb.size = ar.highlight ? 11 : 9;
    lb.line_h = lb.size + 4;
    double w = 0;
    for (const auto& l : lb.lines) w = std::max(w, text_width(l, lb.size));
    w += 10;
    const double h = lb.line_h * static_cast<double>(lb.lines.size()) + 4;
    const double x1 = x(ar.from), x2 = x(ar.to);
    const double y1 = ar.to_lane > ar.from_lane ? box_y(ar.from_lane) + box_h_ : box_y(ar.from_lane);
    const double y2 = ar.from_lane == ar.to_lane  ? box_y(ar.to_lane)
                      : ar.to_lane > ar.from_lane ? box_y(ar.to_lane)
                                                  : box_y(ar.to_lane) + box_h_;
    double bx, by;
    if (ar.label_at >= 0) {
      bx = x(ar.label_at);
      by = std::clamp(box_y(ar.to_lane) + box_h_ / 2 - h / 2, top_ + 2, top_ + plot_h_ - h - 2);
    } else if (ar.highlight) {
      // left of the target box, centred on the arrow's target lane, kept inside the plot
      bx = std::max(left_ + 2, x2 - w - 14);
      by = std::clamp(box_y(ar.to_lane) + box_h_ / 2 - h / 2, top_ + 2, top_ + plot_h_ - h - 2);
      if (ar.from_lane != ar.to_lane) by = std::clamp((y1 + y2) / 2 - h / 2, top_ + 2, top_ + plot_h_ - h - 2);
    } else {
      const double mx = (x1 + x2) / 2, my = ar.from_lane == ar.to_lane ? box_y(ar.to_lane) - 14 : (y1 + y2) / 2;
      bx = mx - w / 2;
      by = my - h / 2;
    }
    lb.rect = {bx, by, w, h};
    return lb;
  }
  bool overlaps(const std::array<double, 4>& r) const {
    return std::any_of(placed_.begin(), placed_.end(), [&](const std::array<double, 4>& p) {
      return r[0] < p[0] + p[2] && p[0] < r[0] + r[2] && r[1] < p[1] + p[3] && p[1] < r[1] + r[3];
    });
  }

  double lane_y(std::size_t l) const { return top_ + lane_h_ * static_cast<double>(l); }
  double box_y(std::size_t l) const { return lane_y(l) + (lane_h_ - box_h_) / 2; }

  void text(double px, double py, const std::string& s, double size, const char* anchor, const char* fill,
            const char* weight = "normal") {
    out_ += "<text x=\"" + num(px) + "\" y=\"" + num(py) + "\" font-size=\"" + num(size) + "\" text-anchor=\"" +
            anchor + "\" fill=\"" + fill + "\" font-weight=\"" + weight + "\">" + esc(s) + "</text>\n";
  }

  void defs() {
    out_ +=
        "<defs>\n"
        "<pattern id=\"stall\" patternUnits=\"userSpaceOnUse\" width=\"7\" height=\"7\" patternTransform=\"rotate(45)\">"
        "<rect width=\"7\" height=\"7\" fill=\"#fde2e2\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"7\" stroke=\"#d9534f\" "
        "stroke-width=\"2.5\"/></pattern>\n"
        "<marker id=\"head\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
        "orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#c62828\"/></marker>\n"
        "<marker id=\"headhl\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"8\" markerHeight=\"8\" "
        "orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#e65100\"/></marker>\n"
        "</defs>\n";
  }

  void legend() {
    double lx = left_, ly = 58;
    auto item = [&](const std::string& what, std::string shape) {
      if (lx + 30 + text_width(what, 11) > width_ - right_ && lx > left_) {
        // wrap to a second row: shift the shape's coordinates
        const double dx = left_ - lx, dy = 20;
        lx = left_;
        ly += dy;
        shape = shift(shape, dx, dy);
      }
      out_ += shape;
      text(lx + 30, ly + 11, what, 11, "start", "#222");
      lx += 30 + text_width(what, 11) + 22;
    };
    const auto& c = kLane[0];
    const bool tails =
        std::any_of(t_.boxes.begin(), t_.boxes.end(), [](const TimelineBox& b) { return b.tail > b.end; });
    std::string icon = "<rect x=\"" + num(lx) + "\" y=\"" + num(ly + 1) + "\" width=\"" + (tails ? "14" : "24") +
                       "\" height=\"11\" fill=\"" + c.fill + "\" stroke=\"" + c.stroke + "\"/>";
    if (tails)
      icon += "<line x1=\"" + num(lx + 14) + "\" y1=\"" + num(ly + 13) + "\" x2=\"" + num(lx + 26) + "\" y2=\"" +
              num(ly + 13) + "\" stroke=\"" + c.stroke + "\" stroke-width=\"1.5\"/><line x1=\"" + num(lx + 26) +
              "\" y1=\"" + num(ly + 9) + "\" x2=\"" + num(lx + 26) + "\" y2=\"" + num(ly + 15) + "\" stroke=\"" +
              c.stroke + "\" stroke-width=\"1.5\"/>";
    item(t_.box_legend, icon);
    bool stall = false, barrier = false, seq = false, highlight = false, ghost = false;
    for (const auto& s : t_.spans) {
      stall = stall || s.kind == TimelineSpan::Kind::Stall;
      barrier = barrier || s.kind == TimelineSpan::Kind::Barrier;
      seq = seq || s.kind == TimelineSpan::Kind::Sequencer;
    }
    if (seq)
      item("sequencer: register operations, branches",
           "<rect x=\"" + num(lx) + "\" y=\"" + num(ly + 5) + "\" width=\"24\" height=\"5\" fill=\"#777\"/>");
    for (const auto& b : t_.boxes) {
      highlight = highlight || b.highlight;
      ghost = ghost || (b.ghost && !b.highlight);
    }
    if (stall)
      item("stalled at a wait", "<rect x=\"" + num(lx) + "\" y=\"" + num(ly + 1) +
                                    "\" width=\"24\" height=\"13\" fill=\"url(#stall)\" stroke=\"#d9534f\"/>");
    if (barrier || !t_.marks.empty())
      item("barrier (dashed: release)", "<rect x=\"" + num(lx) + "\" y=\"" + num(ly + 1) +
                                            "\" width=\"24\" height=\"13\" fill=\"#bdbdbd\" fill-opacity=\"0.55\"/>"
                                            "<line x1=\"" +
                                            num(lx + 12) + "\" y1=\"" + num(ly - 2) + "\" x2=\"" + num(lx + 12) +
                                            "\" y2=\"" + num(ly + 17) +
                                            "\" stroke=\"#444\" stroke-dasharray=\"4,3\" stroke-width=\"1.5\"/>");
    const bool held =
        std::any_of(t_.arrows.begin(), t_.arrows.end(), [](const TimelineArrow& a) { return !a.highlight; });
    const bool broken = std::any_of(t_.arrows.begin(), t_.arrows.end(), [](const TimelineArrow& a) {
      return a.highlight && !(a.from_lane == a.to_lane && a.from == a.to);
    });
    if (broken)
      item("the broken dependency, to the instance owed",
           "<line x1=\"" + num(lx) + "\" y1=\"" + num(ly + 7.5) + "\" x2=\"" + num(lx + 24) + "\" y2=\"" +
               num(ly + 7.5) + "\" stroke=\"#e65100\" stroke-width=\"2.2\" marker-end=\"url(#headhl)\"/>");
    if (held)
      item("dependency that held an issue",
           "<line x1=\"" + num(lx) + "\" y1=\"" + num(ly + 7.5) + "\" x2=\"" + num(lx + 24) + "\" y2=\"" +
               num(ly + 7.5) + "\" stroke=\"#c62828\" stroke-width=\"1.8\" marker-end=\"url(#head)\"/>");
    if (highlight)
      item(t_.highlight_legend,
           "<rect x=\"" + num(lx) + "\" y=\"" + num(ly + 1) +
               "\" width=\"24\" height=\"13\" fill=\"#fff3e0\" stroke=\"#e65100\" stroke-width=\"2.5\"/>");
    if (ghost)
      item("not issued", "<rect x=\"" + num(lx) + "\" y=\"" + num(ly + 1) +
                             "\" width=\"24\" height=\"13\" fill=\"white\" stroke=\"#777\" stroke-dasharray=\"3,2\"/>");
  }

  // Moves every x="..", y="..", x1/x2/y1/y2 and cx/cy attribute of a snippet by (dx, dy).
  static std::string shift(const std::string& s, double dx, double dy) {
    std::string out;
    std::size_t i = 0;
    while (i < s.size()) {
      bool done = false;
      for (const char* attr : {" x=\"", " y=\"", " x1=\"", " x2=\"", " y1=\"", " y2=\"", " cx=\"", " cy=\""}) {
        const std::string a = attr;
        if (s.compare(i, a.size(), a) == 0) {
          const auto end = s.find('"', i + a.size());
          const double v = std::stod(s.substr(i + a.size(), end - i - a.size()));
          const bool is_x = a[1] == 'x' || a[2] == 'x';
          out += a + num(v + (is_x ? dx : dy)) + "\"";
          i = end + 1;
          done = true;
          break;
        }
      }
      if (!done) out += s[i++];
    }
    return out;
  }

  void lanes() {
    for (std::size_t l = 0; l < t_.lanes.size(); ++l) {
      const double y = lane_y(l);
      out_ += "<rect x=\"" + num(left_) + "\" y=\"" + num(y) + "\" width=\"" + num(pw_) + "\" height=\"" +
              num(lane_h_) + "\" fill=\"" + (l % 2 ? "#ffffff" : "#f4f6f9") + "\"/>\n";
      text(left_ - 10, y + lane_h_ / 2 + 4, t_.lanes[l], 12.5, "end", kLane[l % 8].stroke, "bold");
    }
    out_ += "<line x1=\"" + num(left_) + "\" y1=\"" + num(top_) + "\" x2=\"" + num(left_) + "\" y2=\"" +
            num(top_ + plot_h_) + "\" stroke=\"#888\"/>\n";
  }

  void span(const TimelineSpan& s) {
    const double a = x(s.start), b = x(s.end);
    if (b - a < 0.5) return;
    const double y = lane_y(s.lane) + 4, h = lane_h_ - 8;
    if (s.kind == TimelineSpan::Kind::Sequencer)
      out_ += "<rect x=\"" + num(a) + "\" y=\"" + num(box_y(s.lane) + box_h_ + 6) + "\" width=\"" + num(b - a) +
              "\" height=\"5\" fill=\"#777\">";
    else if (s.kind == TimelineSpan::Kind::Stall)
      out_ += "<rect x=\"" + num(a) + "\" y=\"" + num(box_y(s.lane) + 2) + "\" width=\"" + num(b - a) + "\" height=\"" +
              num(box_h_ - 4) + "\" fill=\"url(#stall)\" stroke=\"#d9534f\" stroke-width=\"0.8\">";
    else
      out_ += "<rect x=\"" + num(a) + "\" y=\"" + num(y) + "\" width=\"" + num(b - a) + "\" height=\"" + num(h) +
              "\" fill=\"#bdbdbd\" fill-opacity=\"0.55\">";
    out_ += "<title>" + esc(s.tooltip) + "</title></rect>\n";
  }

  void mark(const TimelineMark& m) {
    const double px = x(m.at);
    out_ += "<line x1=\"" + num(px) + "\" y1=\"" + num(top_ - 4) + "\" x2=\"" + num(px) + "\" y2=\"" +
            num(top_ + plot_h_) + "\" stroke=\"#444\" stroke-width=\"1.4\" stroke-dasharray=\"5,4\"/>\n";
  }

  void box(const TimelineBox& b, std::size_t index) {
    const auto& c = kLane[b.lane % 8];
    const double a = x(b.start), e = std::max(x(b.end), a + 2);
    const auto nrows = static_cast<double>(lane_rows_[b.lane]);
    // Many rows (hundreds of instances in flight) get thin boxes, never a negative height.
    const double h = nrows > 1 ? std::max(0.5, (box_h_ + 8) / nrows - 1) : box_h_;
    const double y = nrows > 1 ? box_y(b.lane) - 4 + static_cast<double>(row_[index]) * (h + 1) : box_y(b.lane);
    std::string style;
    if (b.highlight) style = "fill=\"#fff3e0\" stroke=\"#e65100\" stroke-width=\"3\"";
    else if (b.ghost) style = "fill=\"white\" stroke=\"#777\" stroke-width=\"1.2\" stroke-dasharray=\"3,2\"";
    else style = std::string("fill=\"") + c.fill + "\" stroke=\"" + c.stroke + "\" stroke-width=\"1\"";
    out_ += "<rect x=\"" + num(a) + "\" y=\"" + num(y) + "\" width=\"" + num(e - a) + "\" height=\"" + num(h) +
            "\" rx=\"2\" " + style + "><title>" + esc(b.tooltip) + "</title></rect>\n";
    const double w = e - a;
    if (nrows > 1) {
      // a thin row: the name alone, small
      const auto full = b.label + (b.detail.empty() ? "" : " " + b.detail);
      const auto& shown = text_width(full, 8) + 4 <= w ? full : b.label;
      if (text_width(shown, 8) + 4 <= w) text((a + e) / 2, y + h / 2 + 3, shown, 8, "middle", "#111");
      return;
    }
    // the name first, smaller if need be; the iteration under it only where the name fits too
    double size = 10.5;
    if (text_width(b.label, size) + 4 > w) size = 8.5;
    const bool named = text_width(b.label, size) + 4 <= w;
    const bool two = named && !b.detail.empty() && text_width(b.detail, 8) + 4 <= w;
    if (named) text((a + e) / 2, y + (two ? 11.5 : 17), b.label, size, "middle", "#111");
    if (two) text((a + e) / 2, y + 22.5, b.detail, 8, "middle", "#333");
    const bool labelled =
        std::any_of(t_.arrows.begin(), t_.arrows.end(), [](const TimelineArrow& a) { return a.highlight; });
    if (b.highlight && !labelled) {
      // its label stands above the box, whatever its width
      text(a, y - 5, b.label + (b.detail.empty() ? "" : " (" + b.detail + ")") + t_.highlight_suffix, 11, "start",
           "#e65100", "bold");
    }
  }

  // In flight after the pipeline is free: a line just under the box, to a tick at retirement.
  void tail(const TimelineBox& b) {
    if (b.tail <= b.end) return;
    const auto& c = kLane[b.lane % 8];
    const double e = std::max(x(b.end), x(b.start) + 2), te = x(b.tail), y = box_y(b.lane) + box_h_ + 2;
    out_ += "<line x1=\"" + num(e) + "\" y1=\"" + num(y) + "\" x2=\"" + num(te) + "\" y2=\"" + num(y) + "\" stroke=\"" +
            c.stroke + "\" stroke-width=\"1.5\"/>\n";
    out_ += "<line x1=\"" + num(te) + "\" y1=\"" + num(y - 4) + "\" x2=\"" + num(te) + "\" y2=\"" + num(y + 2) +
            "\" stroke=\"" + c.stroke + "\" stroke-width=\"1.5\"/>\n";
  }

  void arrow(const TimelineArrow& ar) {
    const double x1 = x(ar.from), x2 = x(ar.to);
    // from the producer's lane edge facing the consumer
    const double y1 = ar.to_lane > ar.from_lane ? box_y(ar.from_lane) + box_h_ : box_y(ar.from_lane);
    double y2;
    std::string d;
    if (ar.from_lane == ar.to_lane) {
      y2 = box_y(ar.to_lane);
      const double ym = y2 - 14;
      d = "M" + num(x1) + "," + num(box_y(ar.from_lane)) + " C" + num(x1) + "," + num(ym) + " " + num(x2) + "," +
          num(ym) + " " + num(x2) + "," + num(y2);
    } else {
      y2 = ar.to_lane > ar.from_lane ? box_y(ar.to_lane) : box_y(ar.to_lane) + box_h_;
      d = "M" + num(x1) + "," + num(y1) + " L" + num(x2) + "," + num(y2);
    }
    const char* color = ar.highlight ? "#e65100" : "#c62828";
    const bool no_line = ar.from_lane == ar.to_lane && ar.from == ar.to;  // a label only
    if (!no_line)
      out_ += "<circle cx=\"" + num(x1) + "\" cy=\"" + num(ar.from_lane == ar.to_lane ? box_y(ar.from_lane) : y1) +
              "\" r=\"2.6\" fill=\"" + color + "\"/>\n";
    if (!no_line)
      out_ += "<path d=\"" + d + "\" fill=\"none\" stroke=\"" + color + "\" stroke-width=\"" +
              (ar.highlight ? "2.4" : "1.6") + "\" marker-end=\"url(#" + (ar.highlight ? "headhl" : "head") + ")\"/>\n";
    // many arrows: their labels go into tooltips, or the picture drowns in text
    const bool label_shown = ar.highlight || t_.arrows.size() <= 16;
    if (!no_line)
      out_ += "<path d=\"" + d + "\" fill=\"none\" stroke=\"none\" stroke-width=\"8\"><title>" + esc(ar.label) +
              "</title></path>\n";
    if (!ar.label.empty() && label_shown) {
      auto lb = label_box(ar);
      if (!ar.highlight) {
        // Off the labels placed so far: nudged up or down by its height, within the plot; where
        // every place covers another label, left to the tooltip (and counted in a note).
        const auto base = lb.rect;
        bool free = !overlaps(lb.rect);
        for (int k = 1; k <= 4 && !free; ++k)
          for (const int sign : {-1, 1}) {
            lb.rect[1] = base[1] + sign * k * (base[3] + 2);
            if (lb.rect[1] < top_ + 2 || lb.rect[1] + lb.rect[3] > top_ + plot_h_ - 2) continue;
            if (!overlaps(lb.rect)) {
              free = true;
              break;
            }
          }
        if (!free) {
          ++hidden_labels_;
          return;
        }
        placed_.push_back(lb.rect);
      }
      const auto [bx, by, w, h] = lb.rect;
      out_ += "<rect x=\"" + num(bx) + "\" y=\"" + num(by) + "\" width=\"" + num(w) + "\" height=\"" + num(h) +
              "\" fill=\"white\" fill-opacity=\"" + (ar.highlight ? "0.95" : "0.85") + "\" rx=\"3\"" +
              (ar.highlight ? " stroke=\"#e65100\" stroke-width=\"1\"" : "") + "/>\n";
      for (std::size_t i = 0; i < lb.lines.size(); ++i)
        text(ar.highlight ? bx + 5 : bx + w / 2, by + 2 + lb.line_h * static_cast<double>(i + 1) - 3, lb.lines[i],
             lb.size, ar.highlight ? "start" : "middle", color, ar.highlight && i == 0 ? "bold" : "normal");
    }
  }

  void axis() {
    const double y = top_ + plot_h_;
    out_ += "<line x1=\"" + num(left_) + "\" y1=\"" + num(y) + "\" x2=\"" + num(left_ + pw_) + "\" y2=\"" + num(y) +
            "\" stroke=\"#333\"/>\n";
    // cycles and steps are whole numbers
    const double step = std::max(1.0, nice_step(span_, std::max(4.0, pw_ / 110)));
    for (double v = std::ceil(t_.t0 / step) * step; v <= t_.t1 + 1e-9; v += step) {
      const double px = x(v);
      out_ += "<line x1=\"" + num(px) + "\" y1=\"" + num(y) + "\" x2=\"" + num(px) + "\" y2=\"" + num(y + 5) +
              "\" stroke=\"#333\"/>\n";
      out_ += "<line x1=\"" + num(px) + "\" y1=\"" + num(top_) + "\" x2=\"" + num(px) + "\" y2=\"" + num(y) +
              "\" stroke=\"#000\" stroke-opacity=\"0.06\"/>\n";
      text(px, y + 17, tick_text(v), 10, "middle", "#333");
    }
    text(left_ + pw_, y + 33, t_.unit, 11, "end", "#333", "bold");
  }

  const Timeline& t_;
  double span_ = 1, pw_ = 960, left_ = 96, right_ = 28, top_ = 118, lane_h_ = 58, box_h_ = 28;
  double plot_h_ = 0, width_ = 0, height_ = 0;
  std::string out_;
  std::vector<std::size_t> row_, lane_rows_;
  std::vector<std::string> legend_;            // the boxes too narrow for their names
  std::vector<std::array<double, 4>> placed_;  // arrow labels drawn so far (x, y, width, height)
  std::size_t hidden_labels_ = 0;              // arrow labels left to their tooltips: no free place
};

}  // namespace

std::string render_svg(const Timeline& t) { return Drawer(t).draw(); }

}  // namespace syncbisim::timing
