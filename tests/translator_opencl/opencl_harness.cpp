#include "opencl_harness.hpp"

#include <cstdlib>
#include <cstring>

namespace porta::test {

namespace {

// A string property read with clGetPlatformInfo or clGetDeviceInfo ("" when the query fails).
template <class Object, class Info>
std::string info_string(cl_int (*query)(Object, Info, size_t, void*, size_t*), Object object, Info what) {
  size_t size = 0;
  if (query(object, what, 0, nullptr, &size) != CL_SUCCESS) return {};
  std::string s(size, '\0');
  query(object, what, size, s.data(), nullptr);
  s.resize(std::strlen(s.c_str()));
  return s;
}

std::string platform_string(cl_platform_id platform, cl_platform_info what) {
  return info_string(clGetPlatformInfo, platform, what);
}

std::string device_string(cl_device_id device, cl_device_info what) {
  return info_string(clGetDeviceInfo, device, what);
}

}  // namespace

OpenclHarness::OpenclHarness() {
  const char* wanted_env = std::getenv("PORTA_TEST_OPENCL_DEVICE");
  const std::string wanted = wanted_env && *wanted_env ? wanted_env : "Portable Computing Language";
  cl_uint count = 0;
  if (clGetPlatformIDs(0, nullptr, &count) != CL_SUCCESS || count == 0) {
    reason_ = "no OpenCL platform (is an ICD installed?)";
    return;
  }
  std::vector<cl_platform_id> platforms(count);
  clGetPlatformIDs(count, platforms.data(), nullptr);
  std::string seen;
  for (cl_platform_id platform : platforms) {
    const std::string name = platform_string(platform, CL_PLATFORM_NAME);
    cl_uint devices = 0;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &devices) != CL_SUCCESS || devices == 0)
      continue;
    std::vector<cl_device_id> ids(devices);
    clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, devices, ids.data(), nullptr);
    for (cl_device_id id : ids) {
      const std::string device = device_string(id, CL_DEVICE_NAME);
      seen += " '" + name + ": " + device + "'";
      if (name.find(wanted) == std::string::npos && device.find(wanted) == std::string::npos) continue;
      platform_ = platform;
      device_ = id;
      break;
    }
    if (device_) break;
  }
  if (!device_) {
    reason_ = "no OpenCL device matches '" + wanted + "'; found:" + (seen.empty() ? " none" : seen);
    return;
  }
  cl_int status = CL_SUCCESS;
  context_ = clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &status);
  if (status == CL_SUCCESS) queue_ = clCreateCommandQueue(context_, device_, 0, &status);
  if (status != CL_SUCCESS) {
    reason_ = "clCreateContext/clCreateCommandQueue failed: " + std::to_string(status);
    device_ = nullptr;
  }
}

OpenclHarness::~OpenclHarness() {
  if (queue_) clReleaseCommandQueue(queue_);
  if (context_) clReleaseContext(context_);
}

std::string OpenclHarness::device_name() const {
  return device_ ? device_string(device_, CL_DEVICE_NAME) : "";
}

std::string OpenclHarness::missing_extension(const std::string& source) const {
  std::string extensions = " ";
  if (device_) extensions.append(device_string(device_, CL_DEVICE_EXTENSIONS)).append(" ");
  for (const std::string marker : {"#pragma OPENCL EXTENSION ", "// requires OpenCL extension: "}) {
    for (size_t at = source.find(marker); at != std::string::npos; at = source.find(marker, at + 1)) {
      const size_t begin = at + marker.size(), end = source.find_first_of(" \n", begin);
      const std::string name = source.substr(begin, end - begin);
      if (extensions.find(std::string(" ").append(name).append(" ")) == std::string::npos) return name;
    }
  }
  return "";
}

bool OpenclHarness::build(const std::string& source, std::string& log) {
  const char* text = source.c_str();
  size_t length = source.size();
  cl_int status = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(context_, 1, &text, &length, &status);
  if (status != CL_SUCCESS) {
    log = "clCreateProgramWithSource failed: " + std::to_string(status);
    return false;
  }
  // As porta's OpenCL backend builds: subgroup built-ins need OpenCL C 2.0 or later.
  std::string options = "-cl-std=CL1.2 -Werror";
  if (source.find("// requires OpenCL extension: cl_khr_subgroup") != std::string::npos)
    options = device_string(device_, CL_DEVICE_VERSION).rfind("OpenCL 3.", 0) == 0 ? "-cl-std=CL3.0 -Werror"
                                                                                   : "-cl-std=CL2.0 -Werror";
  status = clBuildProgram(program, 1, &device_, options.c_str(), nullptr, nullptr);
  size_t size = 0;
  clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
  log.assign(size, '\0');
  clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
  log.resize(std::strlen(log.c_str()));
  while (!log.empty() && (log.back() == '\n' || log.back() == ' ')) log.pop_back();
  clReleaseProgram(program);
  if (status != CL_SUCCESS && log.empty()) log = "clBuildProgram failed: " + std::to_string(status);
  return status == CL_SUCCESS;
}

std::string OpenclHarness::run(const std::string& source, const std::string& entry, const uint32_t groups[3],
                               const uint32_t workgroup[3], std::vector<std::vector<uint8_t>*> buffers,
                               const std::vector<uint8_t>& push) {
  const char* text = source.c_str();
  size_t length = source.size();
  cl_int status = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(context_, 1, &text, &length, &status);
  if (status != CL_SUCCESS) return "clCreateProgramWithSource: " + std::to_string(status);
  std::string error;
  std::vector<cl_mem> mems;
  cl_kernel kernel = nullptr;
  status = clBuildProgram(program, 1, &device_, "-cl-std=CL1.2", nullptr, nullptr);
  if (status != CL_SUCCESS) {
    std::string log;
    build(source, log);
    error = "clBuildProgram: " + std::to_string(status) + "\n" + log;
  }
  if (error.empty()) {
    kernel = clCreateKernel(program, entry.c_str(), &status);
    if (status != CL_SUCCESS) error = "clCreateKernel: " + std::to_string(status);
  }
  for (size_t i = 0; error.empty() && i < buffers.size(); ++i) {
    cl_mem mem = clCreateBuffer(context_, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, buffers[i]->size(),
                                buffers[i]->data(), &status);
    if (status != CL_SUCCESS) {
      error = "clCreateBuffer: " + std::to_string(status);
      break;
    }
    mems.push_back(mem);
    status = clSetKernelArg(kernel, static_cast<cl_uint>(i), sizeof(cl_mem), &mem);
    if (status != CL_SUCCESS)
      error = "clSetKernelArg(buffer " + std::to_string(i) + "): " + std::to_string(status);
  }
  cl_uint next_arg = static_cast<cl_uint>(buffers.size());
  if (error.empty() && !push.empty()) {
    status = clSetKernelArg(kernel, next_arg++, push.size(), push.data());
    if (status != CL_SUCCESS)
      error = "clSetKernelArg(push constants, " + std::to_string(push.size()) +
              " bytes): " + std::to_string(status);
  }
  // Then the buffers' sizes (porta_buffer_sizes), as the OpenCL backend passes them.
  if (error.empty() && !buffers.empty()) {
    std::vector<cl_ulong> sizes;
    for (const auto* buffer : buffers) sizes.push_back(buffer->size());
    status = clSetKernelArg(kernel, next_arg, sizes.size() * sizeof(cl_ulong), sizes.data());
    if (status != CL_SUCCESS) error = "clSetKernelArg(buffer sizes): " + std::to_string(status);
  }
  if (error.empty()) {
    size_t global[3], local[3];
    for (int d = 0; d < 3; ++d) {
      local[d] = workgroup[d];
      global[d] = size_t{groups[d]} * workgroup[d];
    }
    status = clEnqueueNDRangeKernel(queue_, kernel, 3, nullptr, global, local, 0, nullptr, nullptr);
    if (status != CL_SUCCESS) error = "clEnqueueNDRangeKernel: " + std::to_string(status);
  }
  for (size_t i = 0; error.empty() && i < mems.size(); ++i) {
    status = clEnqueueReadBuffer(queue_, mems[i], CL_TRUE, 0, buffers[i]->size(), buffers[i]->data(), 0,
                                 nullptr, nullptr);
    if (status != CL_SUCCESS) error = "clEnqueueReadBuffer: " + std::to_string(status);
  }
  for (cl_mem mem : mems) clReleaseMemObject(mem);
  if (kernel) clReleaseKernel(kernel);
  clReleaseProgram(program);
  return error;
}

}  // namespace porta::test
