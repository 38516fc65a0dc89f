#include "user_kernel.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>

#include "json.hpp"
#include "kernel_io.hpp"

namespace porta::conformance {
namespace {

namespace tr = porta::translator;

struct FeatureName {
  uint64_t bit;
  const char* name;
  const char* description;
};
#define PORTA_CONFORMANCE_FEATURE_(suffix, bit, name, description) {uint64_t(1) << (bit), name, description},
constexpr FeatureName kFeatures[] = {PORTA_FEATURE_LIST(PORTA_CONFORMANCE_FEATURE_)};
#undef PORTA_CONFORMANCE_FEATURE_

bool is_glsl(const std::string& path, const std::vector<uint8_t>& bytes) {
  const bool spv_name = path.size() > 4 && path.compare(path.size() - 4, 4, ".spv") == 0;
  const bool magic =
      bytes.size() >= 4 && bytes[0] == 0x03 && bytes[1] == 0x02 && bytes[2] == 0x23 && bytes[3] == 0x07;
  return !spv_name && !magic;
}

std::vector<tr::SpecValue> parse_specs(const UserKernel& k, const tr::KernelLayout& declared) {
  std::vector<tr::SpecValue> out;
  for (const std::string& option : k.specs) {
    const size_t eq = option.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == option.size())
      throw UsageError("--spec '" + option + "' is not ID=VALUE");
    const uint64_t id = parse_size(option.substr(0, eq), "--spec id");
    auto it = std::find_if(declared.spec_constants.begin(), declared.spec_constants.end(),
                           [&](const tr::SpecConstant& s) { return s.id == id; });
    if (it == declared.spec_constants.end()) {
      std::string ids;
      for (const auto& s : declared.spec_constants)
        ids += (ids.empty() ? "" : ", ") + std::to_string(s.id) + (s.name.empty() ? "" : " (" + s.name + ")");
      throw UsageError("--spec '" + option + "': the kernel has no spec constant with constant_id " +
                       std::to_string(id) + "; it has " + (ids.empty() ? "none" : ids));
    }
    tr::SpecValue v{it->id, 0};
    try {
      v.bits = tr::parse_spec_value(*it, option.substr(eq + 1));
    } catch (const std::invalid_argument& e) {
      throw UsageError("--spec " + option + ": spec constant " + std::to_string(it->id) +
                       (it->name.empty() ? "" : " '" + it->name + "'") + " (" + tr::spec_type_name(*it) +
                       "): " + e.what());
    }
    out.erase(std::remove_if(out.begin(), out.end(), [&](const tr::SpecValue& s) { return s.id == v.id; }),
              out.end());
    out.push_back(v);
  }
  return out;
}

// The value as porta's API takes it: a 64-bit constant's 64 bits, else 32.
porta::SpecConstant spec_constant(const tr::KernelLayout& declared, uint32_t id, uint64_t bits) {
  for (const auto& s : declared.spec_constants)
    if (s.id == id && s.width == 8) return porta::SpecConstant(id, bits);
  return porta::SpecConstant(id, static_cast<uint32_t>(bits));
}

std::string describe_buffers(const tr::KernelLayout& layout) {
  std::string s;
  for (size_t i = 0; i < layout.buffers.size(); ++i) s += "\n  " + buffer_label(layout.buffers[i], i);
  return s;
}

}  // namespace

uint64_t parse_features(const std::vector<std::string>& names) {
  uint64_t bits = 0;
  for (const std::string& name : names) {
    auto it = std::find_if(std::begin(kFeatures), std::end(kFeatures),
                           [&](const FeatureName& f) { return name == f.name; });
    if (it == std::end(kFeatures)) {
      std::string known;
      for (const auto& f : kFeatures) known += (known.empty() ? "" : ", ") + std::string(f.name);
      throw UsageError("unknown feature '" + name + "' (the features: " + known + ")");
    }
    bits |= it->bit;
  }
  return bits;
}

std::string missing_features(uint64_t required, uint64_t available) {
  std::string s;
  for (const auto& f : kFeatures)
    if ((required & f.bit) && !(available & f.bit))
      s += (s.empty() ? "" : ", ") + std::string(f.name) + " (" + f.description + ")";
  return s;
}

void validate(const UserKernel& k) {
  read_file(k.path);
  parse_groups(k.groups);
  if (k.auto_inputs && !k.buffers.empty())
    throw UsageError("--inputs auto fills every buffer; give it or --buffer options, not both");
  for (const auto& b : k.buffers) parse_buffer(b);
  std::vector<uint8_t> push;
  for (const auto& p : k.push) append_push(p, push);
  if (!std::isfinite(k.tolerance_ulp) || k.tolerance_ulp < 0)
    throw UsageError("--tolerance-ulp must be a finite number of ulps >= 0");
  parse_features(k.needs);
  for (const auto& e : k.expects) {
    try {
      parse_expectation(e);
    } catch (const std::invalid_argument& error) {
      throw UsageError(error.what());
    }
  }
}

KernelJob prepare_job(const UserKernel& k, uint64_t seed) {
  KernelJob job;
  job.name = k.path.substr(k.path.find_last_of('/') + 1);
  const std::vector<uint8_t> bytes = read_file(k.path);
  if (is_glsl(k.path, bytes)) {
    if (bytes.empty()) throw UsageError("'" + k.path + "' is empty; expected GLSL compute source or SPIR-V");
    if (!k.entry.empty() && k.entry != "main")
      throw UsageError("--entry " + k.entry + ": GLSL source has one entry point, main");
    job.spirv = tr::compile_glsl(std::string(bytes.begin(), bytes.end()), job.name);
  } else {
    porta::KernelSource source = load_kernel(k.path);  // checks the size and magic number
    job.spirv = tr::spirv_from_bytes(bytes.data(), bytes.size());
    const std::vector<std::string> entries = tr::entry_points(job.spirv);
    if (!k.entry.empty()) {
      if (std::find(entries.begin(), entries.end(), k.entry) == entries.end()) {
        std::string names;
        for (const auto& e : entries) names += (names.empty() ? "" : ", ") + e;
        throw UsageError("--entry " + k.entry + ": '" + k.path +
                         "' has no compute entry point of that name; it has " +
                         (names.empty() ? "none" : names));
      }
      job.spirv = tr::select_entry_point(job.spirv, k.entry);
    } else if (entries.size() > 1) {
      std::string names;
      for (const auto& e : entries) names += (names.empty() ? "" : ", ") + e;
      throw UsageError("'" + k.path + "' has " + std::to_string(entries.size()) + " compute entry points (" +
                       names + "): pick one with --entry NAME");
    }
  }
  const tr::KernelLayout declared = tr::reflect_layout(job.spirv);
  const std::vector<tr::SpecValue> specs = parse_specs(k, declared);
  for (const auto& s : specs) job.specs.push_back(spec_constant(declared, s.id, s.bits));
  job.layout = tr::reflect_layout(job.spirv, specs);
  job.groups = parse_groups(k.groups);
  job.needs = parse_features(k.needs);

  const tr::KernelLayout& layout = job.layout;
  std::mt19937_64 rng(seed);
  if (k.auto_inputs) {
    const uint64_t invocations = uint64_t(job.groups.x) * job.groups.y * job.groups.z * layout.local_size[0] *
                                 layout.local_size[1] * layout.local_size[2];
    const uint64_t elements = k.elements ? k.elements : invocations;
    for (const tr::BlockLayout& b : layout.buffers) job.buffers.push_back(fill_block(b, elements, rng));
  } else {
    if (k.buffers.size() != layout.buffers.size())
      throw UsageError("the kernel has " + std::to_string(layout.buffers.size()) +
                       " buffer parameter(s) but " + std::to_string(k.buffers.size()) +
                       " --buffer option(s) were given (one per parameter, in order; or --inputs auto)" +
                       describe_buffers(layout));
    for (const std::string& spec : k.buffers) job.buffers.push_back(parse_buffer(spec).contents());
  }
  const uint64_t push_size = layout.has_push_constants ? layout.push_constants.fixed_size : 0;
  if (!k.push.empty()) {
    for (const auto& p : k.push) append_push(p, job.push);
    if (job.push.size() != push_size)
      throw UsageError("the kernel's push-constant block is " + std::to_string(push_size) +
                       " bytes but --push gives " + std::to_string(job.push.size()));
  } else if (layout.has_push_constants) {
    if (!k.auto_inputs)
      throw UsageError("the kernel has a " + std::to_string(push_size) +
                       "-byte push-constant block: give --push, or --inputs auto");
    job.push = fill_block(layout.push_constants, 0, rng);
    job.push.resize(push_size);
  }
  // Every --expect names scalars of some buffer.
  for (const std::string& text : k.expects) {
    job.expects.push_back(parse_expectation(text));
    uint64_t checked = 0;
    for (size_t i = 0; i < layout.buffers.size(); ++i)
      checked += check_expected(layout.buffers[i], job.buffers[i], job.expects.back(), {}, "").checked;
    if (!checked)
      throw UsageError("--expect " + text + ": no member of the kernel's buffers is '" +
                       job.expects.back().name + "' or inside it (member paths as --layout prints them)" +
                       describe_buffers(layout));
  }
  return job;
}

std::string describe_layout(const KernelJob& job) {
  auto fields = [](const std::vector<tr::LayoutField>& list, const std::string& prefix) {
    std::string s;
    for (const tr::LayoutField& f : list) {
      static const char* const kTypes[] = {"bool", "int", "uint", "float"};
      s += "  " + prefix + f.path + " @" + std::to_string(f.offset) + " " + kTypes[static_cast<int>(f.type)] +
           std::to_string(8 * f.width) + "\n";
    }
    return s;
  };
  auto block = [&](const tr::BlockLayout& b, const std::string& label, uint64_t bytes) {
    std::string s =
        label + ": " + std::to_string(bytes) + " bytes, fixed part " + std::to_string(b.fixed_size);
    if (b.has_runtime_array)
      s += ", runtime array " + b.runtime_name + "[] at " + std::to_string(b.runtime_offset) + " stride " +
           std::to_string(b.runtime_stride);
    s += "\n" + fields(b.fields, "");
    if (b.has_runtime_array) s += fields(b.element, b.runtime_name + "[i]");
    return s;
  };
  char local[64];
  std::snprintf(local, sizeof local, "local size %u,%u,%u\n", job.layout.local_size[0],
                job.layout.local_size[1], job.layout.local_size[2]);
  std::string s = local;
  for (size_t i = 0; i < job.layout.buffers.size(); ++i)
    s += block(job.layout.buffers[i], buffer_label(job.layout.buffers[i], i), job.buffers[i].size());
  if (job.layout.has_push_constants) s += block(job.layout.push_constants, "push constants", job.push.size());
  return s;
}

void write_job(const KernelJob& job, const std::string& folder) {
  Json j = Json::object();
  j["name"] = job.name;
  j["groups"] = {job.groups.x, job.groups.y, job.groups.z};
  Json specs = Json::array();
  for (const auto& s : job.specs) specs.push_back({s.id, s.bits, s.width});
  j["specs"] = specs;
  Json sizes = Json::array();
  Bytes inputs;
  for (const Bytes& b : job.buffers) {
    sizes.push_back(b.size());
    inputs.insert(inputs.end(), b.begin(), b.end());
  }
  j["buffers"] = sizes;
  j["push"] = job.push.size();
  inputs.insert(inputs.end(), job.push.begin(), job.push.end());
  j["needs"] = job.needs;
  const std::string text = j.dump();
  write_file(folder + "/job.json", Bytes(text.begin(), text.end()));
  write_file(folder + "/inputs.bin", inputs);
  Bytes spirv(job.spirv.size() * 4);
  std::memcpy(spirv.data(), job.spirv.data(), spirv.size());
  write_file(folder + "/kernel.spv", spirv);
}

std::string output_file(const std::string& folder, const std::string& backend, int index) {
  return folder + "/out-" + backend + "-" + std::to_string(index) + ".bin";
}

CaseResult run_job(porta::Device& dev, const std::string& folder) {
  Devices d{dev, std::nullopt, ""};
  const porta::DeviceInfo info = dev.info();
  KernelJob job;
  const Bytes text = read_file(folder + "/job.json");
  const Json j = Json::parse(std::string(text.begin(), text.end()));
  job.name = j.at("name").get<std::string>();
  return run_timed(d, "kernel", job.name, [&](CaseResult& r) {
    job.groups = {j.at("groups")[0].get<uint32_t>(), j.at("groups")[1].get<uint32_t>(),
                  j.at("groups")[2].get<uint32_t>()};
    for (const auto& s : j.at("specs")) {
      porta::SpecConstant spec(s[0].get<uint32_t>(), s[1].get<uint64_t>());
      spec.width = s[2].get<uint32_t>();
      job.specs.push_back(spec);
    }
    const Bytes inputs = read_file(folder + "/inputs.bin");
    size_t at = 0;
    for (const auto& size : j.at("buffers")) {
      const size_t n = size.get<size_t>();
      job.buffers.emplace_back(inputs.begin() + at, inputs.begin() + at + n);
      at += n;
    }
    job.push.assign(inputs.begin() + at, inputs.begin() + at + j.at("push").get<size_t>());
    const Bytes spirv = read_file(folder + "/kernel.spv");
    std::vector<uint32_t> words(spirv.size() / 4);
    std::memcpy(words.data(), spirv.data(), spirv.size());
    for (const auto& b : job.buffers) r.elements += b.size() / 4;

    porta::Kernel kernel = dev.kernel(porta::spirv(std::move(words), job.name), job.specs);
    if (kernel.buffer_count() != job.buffers.size())
      throw std::runtime_error("the device's kernel takes " + std::to_string(kernel.buffer_count()) +
                               " buffer(s) but the kernel's reflected layout has " +
                               std::to_string(job.buffers.size()));
    if (kernel.push_constant_size() != job.push.size())
      throw std::runtime_error("the device's kernel takes " + std::to_string(kernel.push_constant_size()) +
                               " push-constant bytes but the kernel's reflected layout has " +
                               std::to_string(job.push.size()));
    std::vector<porta::Buffer> buffers;
    for (const auto& in : job.buffers) {
      buffers.push_back(dev.buffer(in.size()));
      buffers.back().write(std::span<const uint8_t>(in));
    }
    porta::Stream s = dev.stream();
    s.dispatch_bytes(kernel, job.groups, std::span<const porta::Buffer>(buffers),
                     job.push.empty() ? nullptr : job.push.data(), static_cast<uint32_t>(job.push.size()));
    s.sync();
    Bytes out;
    for (auto& b : buffers) {
      const Bytes got = b.to_vector<uint8_t>();
      out.insert(out.end(), got.begin(), got.end());
    }
    write_file(output_file(folder, info.backend, static_cast<int>(info.index)), out);
    r.detail = "ran";
  });
}

void judge_job(const KernelJob& job, const std::string& folder, const UserKernel& k, RunReport& report) {
  // Each device's buffers, as its process left them; a device whose file is
  // missing or of the wrong size failed.
  size_t total = 0;
  for (const Bytes& b : job.buffers) total += b.size();
  std::map<const DeviceReport*, Bytes> outputs;
  for (auto& d : report.devices)
    for (CaseResult& r : d.cases) {
      if (r.outcome != Outcome::kPass || r.detail != "ran") continue;
      try {
        Bytes out = read_file(output_file(folder, d.backend, d.index));
        if (out.size() != total)
          throw std::runtime_error(std::to_string(out.size()) + " bytes where the buffers hold " +
                                   std::to_string(total));
        outputs[&d] = std::move(out);
      } catch (const std::exception& e) {
        r.outcome = Outcome::kFail;
        r.detail = std::string("the device's buffers could not be read back: ") + e.what();
      }
    }
  // The reference: the CPU backend where it ran the kernel, else the first device that did.
  auto ran = [](const DeviceReport& d) {
    return d.status == "ran" && d.cases.size() == 1 && d.cases[0].outcome == Outcome::kPass;
  };
  const DeviceReport* ref = nullptr;
  const DeviceReport* cpu = nullptr;
  for (const auto& d : report.devices)
    if (d.reference && !cpu) cpu = &d;
  if (cpu && ran(*cpu)) ref = cpu;
  UlpTolerance tolerance;
  tolerance.ulp = k.tolerance_ulp;
  // Without it, the device that agrees with the most others (the first of
  // those): where one of them is wrong, that one is named, not the rest.
  const auto agree = [&](const DeviceReport& a, const DeviceReport& b) {
    size_t at = 0;
    for (size_t i = 0; i < job.buffers.size(); ++i) {
      const size_t n = job.buffers[i].size();
      const Bytes& x = outputs.at(&a);
      const Bytes& y = outputs.at(&b);
      if (compare_block(job.layout.buffers[i], Bytes(x.begin() + at, x.begin() + at + n),
                        Bytes(y.begin() + at, y.begin() + at + n), tolerance, "", "", 0)
              .count)
        return false;
      at += n;
    }
    return true;
  };
  size_t most = 0;
  for (const auto& d : report.devices) {
    if ((cpu && ran(*cpu)) || !ran(d)) continue;
    size_t agreeing = 0;
    for (const auto& other : report.devices) agreeing += &other != &d && ran(other) && agree(d, other);
    if (!ref || agreeing > most) ref = &d, most = agreeing;
  }
  std::string why_not_cpu;
  if (ref && ref != cpu) {
    if (!cpu)
      why_not_cpu = "the CPU backend is unavailable";
    else if (!cpu->cases.empty())
      why_not_cpu = cpu->label() + ", the reference, " +
                    (cpu->cases[0].outcome == Outcome::kSkip ? "refused" : "failed") +
                    " the kernel: " + cpu->cases[0].detail;
    else
      why_not_cpu = cpu->label() + ", the reference, " + cpu->status + ": " + cpu->reason;
  }
  Bytes want;
  if (ref) want = outputs.at(ref);
  for (auto& d : report.devices) {
    for (CaseResult& r : d.cases) {
      if (r.outcome == Outcome::kSkip && k.strict && !d.reference_only && !d.lacks_features) {
        r.outcome = Outcome::kFail;
        r.detail = "refused (--strict): " + r.detail;
      }
      if (r.outcome != Outcome::kPass || r.detail != "ran") continue;
      r.unit = "ulp";
      r.worst_bound = k.tolerance_ulp;
      const Bytes& got_all = outputs.at(&d);
      // The kernel's own expected values, on every device (the reference too).
      uint64_t unexpected = 0;
      std::string expect_lines;
      for (const Expectation& e : job.expects) {
        size_t at = 0;
        for (size_t i = 0; i < job.buffers.size(); ++i) {
          const size_t n = job.buffers[i].size();
          const Difference diff =
              check_expected(job.layout.buffers[i], Bytes(got_all.begin() + at, got_all.begin() + at + n), e,
                             tolerance, buffer_label(job.layout.buffers[i], i));
          at += n;
          unexpected += diff.count;
          for (const auto& line : diff.lines) expect_lines += "\n" + line;
        }
      }
      if (unexpected) {
        r.outcome = Outcome::kFail;
        r.detail =
            std::to_string(unexpected) + " value(s) differ from the kernel's expected values:" + expect_lines;
        continue;
      }
      if (&d == ref) {
        int written = 0;
        size_t at = 0;
        for (const Bytes& in : job.buffers) {
          written += !std::equal(in.begin(), in.end(), got_all.begin() + at);
          at += in.size();
        }
        r.detail = "the reference; " + std::to_string(written) + " of " + std::to_string(job.buffers.size()) +
                   " buffer(s) written" + (job.expects.empty() ? "" : ", the kernel's expected values hold") +
                   (why_not_cpu.empty() ? "" : " (" + why_not_cpu + ")");
        continue;
      }
      const std::string reference = ref->label();
      size_t at = 0;
      uint64_t bad = 0;
      std::string lines;
      for (size_t i = 0; i < job.buffers.size(); ++i) {
        const size_t n = job.buffers[i].size();
        const Bytes got(got_all.begin() + at, got_all.begin() + at + n);
        const Bytes expect(want.begin() + at, want.begin() + at + n);
        at += n;
        const Difference diff = compare_block(job.layout.buffers[i], got, expect, tolerance,
                                              buffer_label(job.layout.buffers[i], i), "on " + reference);
        r.worst_error = std::max(r.worst_error, diff.worst_ulp);
        bad += diff.count;
        for (const auto& line : diff.lines) lines += "\n" + line;
      }
      if (bad) {
        r.outcome = Outcome::kFail;
        r.detail = std::to_string(bad) + " value(s) differ from " + reference + ":" + lines;
      } else {
        r.detail = "agrees with " + reference + (why_not_cpu.empty() ? "" : " (" + why_not_cpu + ")");
      }
    }
  }
  // One device alone proves nothing: without a second device that ran the
  // kernel, or the kernel's own expected values, nothing was checked.
  if (ref && outputs.size() == 1 && job.expects.empty()) {
    std::string others;
    for (const auto& d : report.devices) {
      if (&d == ref) continue;
      std::string why = d.cases.empty()
                            ? d.status + (d.reason.empty() ? "" : ": " + d.reason)
                            : std::string(outcome_name(d.cases[0].outcome)) + ": " + d.cases[0].detail;
      others += "; " + d.label() + " " + why.substr(0, why.find('\n'));
    }
    for (auto& d : report.devices)
      if (&d == ref && d.cases[0].outcome == Outcome::kPass) {
        d.cases[0].outcome = Outcome::kSkip;
        d.cases[0].detail = "not compared: " + d.label() +
                            " alone ran the kernel, and the kernel gives no expected values (--expect)" +
                            (others.empty() ? "; no other device is there" : others);
      }
  }
}

}  // namespace porta::conformance
