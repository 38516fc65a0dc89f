#include "model.hpp"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "porta_cli.hpp"
#include "porta_data/file.hpp"

namespace logreg_tool {
namespace {

constexpr const char* kKind = "porta-logreg model";
constexpr int kFormatVersion = 1;

[[noreturn]] void bad(const std::string& path, const std::string& what) {
  throw std::runtime_error(path + ": " + what + "; expected a model written by porta-logreg --save-model");
}

std::vector<float> numbers(const std::string& path, const nlohmann::json& doc, const char* key,
                           uint64_t count) {
  if (!doc.contains(key) || !doc[key].is_array())
    bad(path, std::string("'") + key + "' is missing or not a list");
  const nlohmann::json& list = doc[key];
  if (list.size() != count)
    bad(path, std::string("'") + key + "' has " + std::to_string(list.size()) + " numbers for " +
                  std::to_string(count) + " features");
  std::vector<float> out;
  for (size_t i = 0; i < list.size(); ++i) {
    if (!list[i].is_number())
      bad(path, std::string("'") + key + "'[" + std::to_string(i) + "] is not a number");
    const double v = list[i].get<double>();
    if (!std::isfinite(static_cast<float>(v)))
      bad(path, std::string("'") + key + "'[" + std::to_string(i) + "] is not a finite float32");
    out.push_back(static_cast<float>(v));
  }
  return out;
}

}  // namespace

double Model::probability(const float* row) const {
  double z = b;
  for (uint64_t j = 0; j < features; ++j) z += static_cast<double>(row[j]) * w[j];
  return z >= 0 ? 1 / (1 + std::exp(-z)) : std::exp(z) / (1 + std::exp(z));
}

void save_model(const std::string& path, const Model& m) {
  nlohmann::json doc;
  doc["kind"] = kKind;
  doc["format_version"] = kFormatVersion;
  doc["porta_version"] = m.porta_version;
  doc["features"] = m.features;
  doc["weights"] = m.w;
  doc["bias"] = m.b;
  if (m.standardization.empty()) {
    doc["standardization"] = nullptr;
  } else {
    doc["standardization"] = {{"mean", m.standardization.mean}, {"std", m.standardization.std}};
  }
  doc["feature_names"] = m.feature_names;
  doc["trained"] = {{"device", m.device},         {"data", m.data}, {"samples", m.samples},
                    {"iterations", m.iterations}, {"lr", m.lr},     {"loss", m.loss}};
  if (porta::cli::is_stdout(path))
    std::fputs((doc.dump(2) + "\n").c_str(), stdout);
  else
    porta::data::write_file_atomically(path, doc.dump(2) + "\n");
}

Model load_model(const std::string& path) {
  const std::string text = porta::data::read_file(path);
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    bad(path, std::string("not JSON (") + e.what() + ")");
  }
  if (!doc.is_object() || doc.value("kind", "") != kKind) bad(path, "no \"kind\": \"porta-logreg model\"");
  if (!doc.contains("format_version") || !doc["format_version"].is_number_integer() ||
      doc["format_version"].get<int>() != kFormatVersion)
    bad(path, "format_version is not " + std::to_string(kFormatVersion));
  Model m;
  if (!doc.contains("features") || !doc["features"].is_number_unsigned() ||
      doc["features"].get<uint64_t>() == 0)
    bad(path, "'features' is missing or not a positive whole number");
  m.features = doc["features"].get<uint64_t>();
  m.w = numbers(path, doc, "weights", m.features);
  if (!doc.contains("bias") || !doc["bias"].is_number() || !std::isfinite(doc["bias"].get<float>()))
    bad(path, "'bias' is missing or not a finite number");
  m.b = doc["bias"].get<float>();
  if (doc.contains("standardization") && !doc["standardization"].is_null()) {
    const nlohmann::json& s = doc["standardization"];
    if (!s.is_object()) bad(path, "'standardization' is neither null nor {mean, std}");
    m.standardization.mean = numbers(path, s, "mean", m.features);
    m.standardization.std = numbers(path, s, "std", m.features);
    for (size_t j = 0; j < m.features; ++j)
      if (!(m.standardization.std[j] > 0))
        bad(path, "'standardization'.'std'[" + std::to_string(j) + "] is not positive");
  }
  if (doc.contains("feature_names") && doc["feature_names"].is_array())
    for (const auto& n : doc["feature_names"])
      if (n.is_string()) m.feature_names.push_back(n.get<std::string>());
  m.porta_version = doc.value("porta_version", "");
  // How it was trained: kept so that training on from this model counts on.
  if (doc.contains("trained") && doc["trained"].is_object()) {
    const nlohmann::json& t = doc["trained"];
    if (t.contains("iterations") && t["iterations"].is_number_unsigned()) m.iterations = t["iterations"];
    m.device = t.value("device", "");
    m.data = t.value("data", "");
  }
  return m;
}

}  // namespace logreg_tool
