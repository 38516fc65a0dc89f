#include "report.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <stdexcept>

#include "json.hpp"
#include "porta_cli.hpp"

namespace porta::conformance {

std::string DeviceReport::label() const {
  return index < 0 ? backend : backend + ":" + std::to_string(index);
}

std::vector<std::string> DeviceReport::deviations() const {
  std::set<std::string> names;
  for (const auto& c : cases)
    if (!c.deviation.empty()) names.insert(c.deviation);
  return {names.begin(), names.end()};
}

namespace {

struct Summary {
  int cases = 0, pass = 0, fail = 0, skip = 0, deviation = 0, crash = 0, hang = 0;
  double worst_ratio = -1, worst_error = 0, worst_bound = 0;
  std::string unit;
  std::string skip_reason;  // the first one
  uint64_t worst_seed = 0;
  std::string worst_case;

  void add(const CaseResult& r) {
    ++cases;
    int* const counters[] = {&pass, &fail, &skip, &deviation, &crash, &hang};  // in Outcome's order
    static_assert(std::size(counters) == kOutcomeCount);
    ++*counters[static_cast<int>(r.outcome)];
    if (r.outcome == Outcome::kSkip && skip_reason.empty()) skip_reason = r.detail;
    if (r.outcome == Outcome::kSkip || r.outcome == Outcome::kCrash || r.outcome == Outcome::kHang) return;
    const double ratio =
        r.worst_bound > 0 ? r.worst_error / r.worst_bound : (r.worst_error > 0 ? INFINITY : 0);
    if (ratio > worst_ratio) {
      worst_ratio = ratio;
      worst_error = r.worst_error;
      worst_bound = r.worst_bound;
      unit = r.unit;
      worst_seed = r.seed;
      worst_case = r.name;
    }
  }
  bool failed() const { return fail > 0 || crash > 0 || hang > 0; }
  std::string verdict() const {
    if (crash) return "CRASH";
    if (hang) return "HANG";
    if (fail) return "FAIL";
    if (cases == 0) return "-";
    if (skip == cases) return "SKIP";
    if (deviation) return "DEV";
    return "PASS";
  }
  std::string counts() const {
    if (cases == 0) return "";
    if (fail || crash || hang) return std::to_string(fail + crash + hang) + "/" + std::to_string(cases);
    return std::to_string(pass + deviation) + "/" + std::to_string(cases);
  }
  std::string worst() const {
    if (worst_ratio < 0) return "-";
    char buf[96];
    if (worst_bound == 0 && worst_error == 0)
      std::snprintf(buf, sizeof buf, "0 (bit-exact)");
    else
      std::snprintf(buf, sizeof buf, "%.3g / %.3g %s", worst_error, worst_bound, unit.c_str());
    return buf;
  }
};

Summary summarize(const DeviceReport& d, const std::string& op) {
  Summary s;
  for (const auto& c : d.cases)
    if (op.empty() || c.op == op) s.add(c);
  return s;
}

std::string pad(std::string s, size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

std::string device_heading(const DeviceReport& d) {
  std::string h = d.label();
  if (!d.device.empty()) h += "  " + d.device;
  if (d.reference) h += "  [the reference: judged against the float64 oracle]";
  return h;
}

std::string html_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// XML attribute and text: HTML's entities plus &apos;, and without the control
// characters XML 1.0 may not carry.
std::string xml_escape(const std::string& s) {
  std::string kept;
  for (unsigned char c : s)
    if (c >= 0x20 || c == '\n' || c == '\t') kept += static_cast<char>(c);
  std::string out;
  for (char c : html_escape(kept)) {
    if (c == '\'')
      out += "&apos;";
    else
      out += c;
  }
  return out;
}

void write_text_file(const std::string& path, const std::string& text) {
  porta::cli::write_output(path, text);
}

}  // namespace

void print_text(const RunReport& report, FILE* out) {
  std::fprintf(out, "\nporta-conformance %s, seed %llu, %.1f s\n", report.mode.c_str(),
               static_cast<unsigned long long>(report.seed), report.seconds);
  for (const auto& d : report.devices) {
    std::fprintf(out, "\n== %s\n", device_heading(d).c_str());
    // Crash and time-out reasons say what happened themselves.
    if (d.status == "unavailable" || d.status == "failed to open" || d.status == "failed to start")
      std::fprintf(out, "   %s: %s\n", d.status.c_str(), d.reason.c_str());
    else if (d.status != "ran")
      std::fprintf(out, "   %s\n", d.reason.c_str());
    if (d.cases.empty()) continue;
    for (const auto& dev : d.deviations()) std::fprintf(out, "   deviation: %s\n", dev.c_str());
    std::fprintf(out, "   %s %6s %6s %6s %6s %6s  %s\n", pad("op", 14).c_str(), "cases", "pass", "fail",
                 "skip", "dev", "worst error / bound");
    std::vector<std::string> ops = report.ops;
    for (const auto& c : d.cases)
      if (std::find(ops.begin(), ops.end(), c.op) == ops.end()) ops.push_back(c.op);
    for (const auto& op : ops) {
      Summary s = summarize(d, op);
      if (s.cases == 0) continue;
      std::fprintf(out, "   %s %6d %6d %6d %6d %6d  %s\n", pad(op, 14).c_str(), s.cases, s.pass,
                   s.fail + s.crash + s.hang, s.skip, s.deviation, s.worst().c_str());
    }
  }
  // Failures, each with where and how to replay it.
  bool heading = false;
  for (const auto& d : report.devices)
    for (const auto& c : d.cases) {
      if (c.outcome != Outcome::kFail && c.outcome != Outcome::kCrash && c.outcome != Outcome::kHang)
        continue;
      if (!heading) std::fprintf(out, "\nFailures:\n");
      heading = true;
      std::fprintf(out, "%s %s op %s case %s seed %llu\n", outcome_name(c.outcome), d.label().c_str(),
                   c.op.c_str(), c.name.c_str(), static_cast<unsigned long long>(c.seed));
      std::string detail = c.detail;
      size_t start = 0;
      while (start < detail.size()) {
        size_t end = detail.find('\n', start);
        if (end == std::string::npos) end = detail.size();
        std::fprintf(out, "    %s\n", detail.substr(start, end - start).c_str());
        start = end + 1;
      }
      if (!c.replay.empty()) std::fprintf(out, "    replay: %s\n", c.replay.c_str());
    }
  // Skips with their reasons: a skip is not a pass, and the reader needs to
  // know what the device lacked. A device without a reference skips every
  // case for one reason, hence the limit per device.
  heading = false;
  for (const auto& d : report.devices) {
    constexpr int kShown = 10;
    int skipped = 0;
    for (const auto& c : d.cases) {
      if (c.outcome != Outcome::kSkip) continue;
      if (!heading) std::fprintf(out, "\nSkipped:\n");
      heading = true;
      if (skipped++ < kShown)
        std::fprintf(out, "SKIP %s op %s case %s: %s\n", d.label().c_str(), c.op.c_str(), c.name.c_str(),
                     c.detail.substr(0, c.detail.find('\n')).c_str());
    }
    if (skipped > kShown)
      std::fprintf(out, "SKIP %s: %d more (the --json and --junit reports list every one)\n",
                   d.label().c_str(), skipped - kShown);
  }
  // The matrix.
  std::fprintf(out, "\nSummary (backends x ops):\n%s", pad("", 14).c_str());
  for (const auto& op : report.ops) std::fprintf(out, " %s", pad(op, 14).c_str());
  std::fprintf(out, "\n");
  for (const auto& d : report.devices) {
    std::fprintf(out, "%s", pad(d.label(), 14).c_str());
    if (d.cases.empty()) {
      std::fprintf(out, " %s: %s\n",
                   d.status == "unavailable" ? "SKIP"
                   : d.status == "hung"      ? "HANG"
                                             : "CRASH",
                   d.reason.c_str());
      continue;
    }
    for (const auto& op : report.ops) {
      Summary s = summarize(d, op);
      std::fprintf(out, " %s", pad(s.verdict() + " " + s.counts(), 14).c_str());
    }
    std::vector<std::string> dev = d.deviations();
    std::string note = d.status != "ran" ? "  (" + d.reason + ")" : "";
    for (const auto& n : dev) note += "  [" + n + "]";
    std::fprintf(out, "%s\n", note.c_str());
  }
  int fails = 0, skips = 0, passes = 0, devs = 0;
  for (const auto& d : report.devices) {
    Summary s = summarize(d, "");
    fails += s.fail + s.crash + s.hang;
    skips += s.skip;
    passes += s.pass;
    devs += s.deviation;
  }
  std::fprintf(out, "\n%d passed, %d failed, %d skipped, %d deviations (counted apart from passes)\n", passes,
               fails, skips, devs);
}

void write_json(const RunReport& report, const std::string& path) {
  Json root = Json::object();
  root["mode"] = report.mode;
  root["seed"] = std::to_string(report.seed);
  root["command"] = report.command;
  root["seconds"] = json_number(report.seconds);
  Json ops = Json::array();
  for (const auto& op : report.ops) ops.push_back(op);
  root["ops"] = ops;
  Json devices = Json::array();
  for (const auto& d : report.devices) {
    Json j = Json::object();
    j["label"] = d.label();
    j["backend"] = d.backend;
    j["device"] = d.device;
    j["index"] = d.index;
    j["status"] = d.status;
    j["reason"] = d.reason;
    j["reference"] = d.reference;
    j["reference_only"] = d.reference_only;
    j["lacks_features"] = d.lacks_features;
    Json dev = Json::array();
    for (const auto& n : d.deviations()) dev.push_back(n);
    j["deviations"] = dev;
    Json per_op = Json::object();
    for (const auto& op : report.ops) {
      Summary s = summarize(d, op);
      Json o = Json::object();
      o["verdict"] = s.verdict();
      o["cases"] = s.cases;
      o["pass"] = s.pass;
      o["fail"] = s.fail + s.crash + s.hang;
      o["skip"] = s.skip;
      o["deviation"] = s.deviation;
      o["worst_error"] = json_number(s.worst_error);
      o["worst_bound"] = json_number(s.worst_bound);
      o["unit"] = s.unit;
      per_op[op] = o;
    }
    j["ops"] = per_op;
    Json cases = Json::array();
    for (const auto& c : d.cases) cases.push_back(c.to_json());
    j["cases"] = cases;
    devices.push_back(j);
  }
  root["devices"] = devices;
  write_text_file(path, root.dump() + "\n");
}

void write_junit(const RunReport& report, const std::string& path) {
  std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"porta-conformance\">\n";
  for (const auto& d : report.devices) {
    Summary s = summarize(d, "");
    char head[256];
    std::snprintf(head, sizeof head, " tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\"",
                  std::max(s.cases, 1), s.fail, s.crash, s.skip + (s.cases == 0 ? 1 : 0));
    x += "  <testsuite name=\"" + xml_escape(device_heading(d)) + "\"" + head + ">\n";
    if (d.cases.empty()) {
      x += "    <testcase classname=\"" + xml_escape(d.label()) + "\" name=\"backend\">\n";
      if (d.status == "unavailable")
        x += "      <skipped message=\"" + xml_escape(d.reason) + "\"/>\n";
      else
        x += "      <error message=\"" + xml_escape(d.status + ": " + d.reason) + "\"/>\n";
      x += "    </testcase>\n";
    }
    for (const auto& c : d.cases) {
      char t[32];
      std::snprintf(t, sizeof t, "%.3f", c.seconds);
      x += "    <testcase classname=\"" + xml_escape(d.label() + "." + c.op) + "\" name=\"" +
           xml_escape(c.name) + "\" time=\"" + t + "\">\n";
      const std::string body = c.detail + "\nseed " + std::to_string(c.seed) + "\nreplay: " + c.replay;
      if (c.outcome == Outcome::kFail)
        x += "      <failure message=\"" + xml_escape(c.detail.substr(0, c.detail.find('\n'))) + "\">" +
             xml_escape(body) + "</failure>\n";
      else if (c.outcome == Outcome::kCrash || c.outcome == Outcome::kHang)
        x += "      <error message=\"" + xml_escape(c.detail.substr(0, c.detail.find('\n'))) + "\">" +
             xml_escape(body) + "</error>\n";
      else if (c.outcome == Outcome::kSkip)
        x += "      <skipped message=\"" + xml_escape(c.detail) + "\"/>\n";
      else if (c.outcome == Outcome::kDeviation)
        x += "      <system-out>" + xml_escape("deviation: " + c.deviation + ": " + c.detail) +
             "</system-out>\n";
      x += "    </testcase>\n";
    }
    x += "  </testsuite>\n";
  }
  x += "</testsuites>\n";
  write_text_file(path, x);
}

void write_html(const RunReport& report, const std::string& path) {
  std::string h;
  h += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>porta "
       "conformance</title>\n<style>\n";
  h += "body{font-family:system-ui,-apple-system,'Segoe "
       "UI',sans-serif;margin:24px;color:#222;background:#fff}\n"
       "h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 6px}\n"
       ".meta{color:#555;font-size:13px;margin-bottom:14px}\n"
       "table{border-collapse:collapse;font-size:13px;margin:6px 0}\n"
       "th,td{border:1px solid #bbb;padding:5px 8px;text-align:left;vertical-align:top}\n"
       "th{background:#eee}\n"
       "td.pass{background:#c8f0c8}td.fail{background:#f4b4b4}td.skip{background:#dcdcdc;color:#444}\n"
       "td.dev{background:#f6e7a8}td.none{background:#fafafa;color:#999}\n"
       ".v{font-weight:700}.small{font-size:11px;color:#333;display:block;margin-top:2px}\n"
       "pre{background:#f6f6f6;border:1px solid #ddd;padding:8px;font-size:12px;white-space:pre-wrap}\n"
       ".legend span{display:inline-block;padding:2px 8px;margin-right:6px;border:1px solid "
       "#bbb;font-size:12px}\n"
       "</style></head><body>\n";
  char meta[256];
  std::snprintf(meta, sizeof meta, "%s &middot; seed %llu &middot; %.1f s", html_escape(report.mode).c_str(),
                static_cast<unsigned long long>(report.seed), report.seconds);
  h += "<h1>porta conformance</h1>\n<div class=\"meta\">" + std::string(meta) + "<br><code>" +
       html_escape(report.command) + "</code></div>\n";
  h += "<div class=\"legend\"><span style=\"background:#c8f0c8\">pass</span><span "
       "style=\"background:#f4b4b4\">fail"
       "</span><span style=\"background:#dcdcdc\">skip</span><span style=\"background:#f6e7a8\">pass with a "
       "named "
       "deviation</span></div>\n";
  auto css = [](const std::string& verdict) {
    if (verdict == "PASS") return "pass";
    if (verdict == "FAIL" || verdict == "CRASH" || verdict == "HANG") return "fail";
    if (verdict == "SKIP") return "skip";
    if (verdict == "DEV") return "dev";
    return "none";
  };
  h += "<h2>Backends &times; ops</h2>\n<table><tr><th>device</th>";
  for (const auto& op : report.ops) h += "<th>" + html_escape(op) + "</th>";
  h += "</tr>\n";
  for (const auto& d : report.devices) {
    h += "<tr><th>" + html_escape(d.label()) + "<span class=\"small\">" + html_escape(d.device) + "</span>";
    for (const auto& n : d.deviations()) h += "<span class=\"small\">&#9888; " + html_escape(n) + "</span>";
    if (d.status != "ran" && !d.cases.empty())
      h += "<span class=\"small\">" + html_escape(d.reason) + "</span>";
    h += "</th>";
    if (d.cases.empty()) {
      const bool skip = d.status == "unavailable";
      h += "<td class=\"" + std::string(skip ? "skip" : "fail") + "\" colspan=\"" +
           std::to_string(report.ops.size()) + "\"><span class=\"v\">" +
           (skip                 ? "SKIP"
            : d.status == "hung" ? "HANG"
                                 : "CRASH") +
           "</span><span class=\"small\">" + html_escape(d.reason) + "</span></td></tr>\n";
      continue;
    }
    for (const auto& op : report.ops) {
      Summary s = summarize(d, op);
      const std::string v = s.verdict();
      h += "<td class=\"" + std::string(css(v)) + "\"><span class=\"v\">" + v + " " + s.counts() + "</span>";
      if (s.worst_ratio >= 0)
        h += "<span class=\"small\">worst " + html_escape(s.worst()) + "</span><span class=\"small\">case " +
             html_escape(s.worst_case) + ", seed " + std::to_string(s.worst_seed) + "</span>";
      if (s.skip && s.skip == s.cases)
        h += "<span class=\"small\">" + html_escape(s.skip_reason.substr(0, 160)) + "</span>";
      h += "</td>";
    }
    h += "</tr>\n";
  }
  h += "</table>\n";
  // Per device.
  for (const auto& d : report.devices) {
    if (d.cases.empty()) continue;
    h += "<h2>" + html_escape(device_heading(d)) +
         "</h2>\n<table><tr><th>op</th><th>cases</th><th>pass</th>"
         "<th>fail</th><th>skip</th><th>deviation</th><th>worst error / bound</th></tr>\n";
    for (const auto& op : report.ops) {
      Summary s = summarize(d, op);
      if (s.cases == 0) continue;
      h += "<tr><td class=\"" + std::string(css(s.verdict())) + "\">" + html_escape(op) + "</td><td>" +
           std::to_string(s.cases) + "</td><td>" + std::to_string(s.pass) + "</td><td>" +
           std::to_string(s.fail + s.crash + s.hang) + "</td><td>" + std::to_string(s.skip) + "</td><td>" +
           std::to_string(s.deviation) + "</td><td>" + html_escape(s.worst()) + "</td></tr>\n";
    }
    h += "</table>\n";
    for (const auto& c : d.cases) {
      if (c.outcome != Outcome::kFail && c.outcome != Outcome::kCrash && c.outcome != Outcome::kHang)
        continue;
      h += "<pre>" +
           html_escape(std::string(outcome_name(c.outcome)) + " " + d.label() + " op " + c.op + " case " +
                       c.name + " seed " + std::to_string(c.seed) + "\n" + c.detail +
                       "\nreplay: " + c.replay) +
           "</pre>\n";
    }
  }
  h += "</body></html>\n";
  write_text_file(path, h);
}

int exit_status(const RunReport& report) {
  bool any_ran = false;
  for (const auto& d : report.devices) {
    if (d.status != "unavailable") any_ran = true;
    if (d.status != "ran" && d.status != "unavailable") return 1;
    if (summarize(d, "").failed()) return 1;
  }
  return any_ran ? 0 : 77;
}

}  // namespace porta::conformance
