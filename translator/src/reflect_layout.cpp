// SPIR-V → the typed layout of every buffer (KernelLayout): which scalar each
// byte of a block belongs to, from its Offset/ArrayStride/MatrixStride/RowMajor
// decorations. For tools that fill buffers with typed values and compare them
// member by member (porta-conformance --kernel); the kernel ABI itself is
// reflect() in reflect.cpp.
#include <algorithm>
#include <spirv_cross.hpp>
#include <string>
#include <vector>

#include "bfloat16_lowering.hpp"
#include "porta_translator/translator.hpp"
#include "reflect_util.hpp"
#include "spirv_words.hpp"

namespace porta::translator {
namespace {

using spirv_cross::SPIRType;

// More fields than this in one block's fixed part (a huge fixed-size array)
// would take more memory to describe than to hold.
constexpr size_t kMaxFields = size_t(1) << 22;

struct Walker {
  const spirv_cross::Compiler& compiler;
  std::string block;  // for messages

  // A struct member's MatrixStride, 0 without one. (get_member_decoration
  // does not know this decoration: it answers 1.)
  uint32_t member_matrix_stride(const SPIRType& type, uint32_t member) const {
    if (!compiler.has_member_decoration(type.self, member, spv::DecorationMatrixStride)) return 0;
    return compiler.type_struct_member_matrix_stride(type, member);
  }

  uint64_t array_length(const SPIRType& type, size_t dimension) const {
    if (type.array_size_literal[dimension]) return type.array[dimension];
    return compiler.get_constant(type.array[dimension]).scalar();
  }

  void add(std::vector<LayoutField>& out, LayoutField field) const {
    if (out.size() >= kMaxFields)
      throw Error(Error::Kind::UnsupportedFeature, "block '" + block + "' has more than " +
                                                       std::to_string(kMaxFields) +
                                                       " scalars in its fixed part; its layout is not typed");
    out.push_back(std::move(field));
  }

  // Every scalar of a value of type `type_id` at `offset`. `matrix_stride`
  // and `row_major` come from the struct member holding the (array of) matrix.
  void walk(uint32_t type_id, uint64_t offset, const std::string& path, uint32_t matrix_stride,
            bool row_major, std::vector<LayoutField>& out) const {
    const SPIRType& type = compiler.get_type(type_id);
    if (!type.array.empty()) {
      // array.back() is the outermost dimension; parent_type the element.
      const uint64_t length = array_length(type, type.array.size() - 1);
      const uint32_t stride = compiler.get_decoration(type_id, spv::DecorationArrayStride);
      if (stride == 0)
        throw Error(Error::Kind::InvalidSpirv,
                    "array '" + path + "' of block '" + block + "' has no ArrayStride");
      for (uint64_t i = 0; i < length; ++i)
        walk(type.parent_type, offset + i * stride, path + "[" + std::to_string(i) + "]", matrix_stride,
             row_major, out);
      return;
    }
    if (type.basetype == SPIRType::Struct) {
      for (uint32_t i = 0; i < type.member_types.size(); ++i) {
        std::string name = compiler.get_member_name(type.self, i);
        if (name.empty()) name = "_m" + std::to_string(i);
        const uint32_t member_offset = compiler.type_struct_member_offset(type, i);
        const uint32_t stride = member_matrix_stride(type, i);
        const bool member_row_major = compiler.has_member_decoration(type.self, i, spv::DecorationRowMajor);
        walk(type.member_types[i], offset + member_offset, path.empty() ? name : path + "." + name, stride,
             member_row_major, out);
      }
      return;
    }
    const uint32_t width = type.basetype == SPIRType::Boolean ? 4 : type.width / 8;
    const ScalarType scalar = scalar_type(type.basetype);
    static const char kComponents[] = "xyzw";
    if (type.columns > 1) {
      if (matrix_stride == 0)
        throw Error(Error::Kind::InvalidSpirv,
                    "matrix '" + path + "' of block '" + block + "' has no MatrixStride");
      for (uint32_t c = 0; c < type.columns; ++c)
        for (uint32_t r = 0; r < type.vecsize; ++r) {
          const uint64_t at = row_major ? r * matrix_stride + c * width : c * matrix_stride + r * width;
          add(out,
              {path + "[" + std::to_string(c) + "][" + std::to_string(r) + "]", offset + at, scalar, width});
        }
      return;
    }
    for (uint32_t k = 0; k < type.vecsize; ++k)
      add(out, {type.vecsize > 1 ? path + "." + kComponents[k] : path, offset + k * width, scalar, width});
  }

  // The block struct `type_id`: its fixed part and its runtime array.
  void block_layout(uint32_t type_id, BlockLayout& layout) const {
    const SPIRType& type = compiler.get_type(type_id);
    layout.type_name = compiler.get_name(type.self);
    const size_t members = type.member_types.size();
    size_t fixed_members = members;
    if (members > 0) {
      const SPIRType& last = compiler.get_type(type.member_types.back());
      if (!last.array.empty() && last.array_size_literal.back() && last.array.back() == 0) {
        fixed_members = members - 1;
        layout.has_runtime_array = true;
        layout.runtime_name = compiler.get_member_name(type.self, uint32_t(members - 1));
        if (layout.runtime_name.empty()) layout.runtime_name = "_m" + std::to_string(members - 1);
        layout.runtime_offset = compiler.type_struct_member_offset(type, uint32_t(members - 1));
        layout.runtime_stride = compiler.type_struct_member_array_stride(type, uint32_t(members - 1));
        const uint32_t stride = member_matrix_stride(type, uint32_t(members - 1));
        const bool row_major =
            compiler.has_member_decoration(type.self, uint32_t(members - 1), spv::DecorationRowMajor);
        walk(last.parent_type, 0, "", stride, row_major, layout.element);
        // Paths of an element follow "name[i]": a member starts with a dot.
        for (LayoutField& f : layout.element)
          if (!f.path.empty() && f.path[0] != '[' && f.path[0] != '.') f.path = "." + f.path;
      }
    }
    for (uint32_t i = 0; i < fixed_members; ++i) {
      std::string name = compiler.get_member_name(type.self, i);
      if (name.empty()) name = "_m" + std::to_string(i);
      const uint32_t stride = member_matrix_stride(type, i);
      walk(type.member_types[i], compiler.type_struct_member_offset(type, i), name, stride,
           compiler.has_member_decoration(type.self, i, spv::DecorationRowMajor), layout.fields);
    }
    layout.fixed_size =
        layout.has_runtime_array ? layout.runtime_offset : compiler.get_declared_struct_size(type);
    std::stable_sort(layout.fields.begin(), layout.fields.end(),
                     [](const LayoutField& a, const LayoutField& b) { return a.offset < b.offset; });
  }
};

}  // namespace

KernelLayout reflect_layout(const std::vector<uint32_t>& spirv, const std::vector<SpecValue>& specs) {
  // SPIRV-Cross cannot read cooperative matrices, nor Debian's SPIRV-Tools
  // bfloat16; their lowering has the same buffers.
  if (uses_cooperative_matrix(spirv) || uses_bfloat16(spirv))
    return reflect_layout(lower_cooperative_matrix_interface(spirv), specs);
  KernelLayout out;
  try {
    {
      const spirv_cross::Compiler declared(spirv);
      out.spec_constants = spec_constants(declared);
    }
    // Array lengths may be spec constants: read them where they are plain constants.
    const std::vector<uint32_t> specialised = specialize(spirv, specs);
    spirv_cross::Compiler compiler(specialised);
    for (const auto& entry : compiler.get_entry_points_and_stages())
      if (entry.execution_model == spv::ExecutionModelGLCompute) {
        compiler.set_entry_point(entry.name, entry.execution_model);
        const spirv_cross::SPIREntryPoint& e = compiler.get_entry_point(entry.name, entry.execution_model);
        out.local_size[0] = e.workgroup_size.x;
        out.local_size[1] = e.workgroup_size.y;
        out.local_size[2] = e.workgroup_size.z;
        // A workgroup size given by spec constants (or a WorkgroupSize
        // built-in constant) is a constant once specialised.
        if (e.workgroup_size.constant != 0) {
          const spirv_cross::SPIRConstant& c = compiler.get_constant(e.workgroup_size.constant);
          for (uint32_t d = 0; d < 3; ++d) out.local_size[d] = c.scalar(0, d);
        }
        break;
      }
    const spirv_cross::ShaderResources resources = compiler.get_shader_resources();
    auto add_blocks = [&](const spirv_cross::SmallVector<spirv_cross::Resource>& list, bool uniform) {
      for (const spirv_cross::Resource& resource : list) {
        BlockLayout layout;
        layout.set = compiler.get_decoration(resource.id, spv::DecorationDescriptorSet);
        layout.binding = compiler.get_decoration(resource.id, spv::DecorationBinding);
        layout.uniform = uniform;
        layout.name = compiler.get_name(resource.id);
        if (layout.name.empty()) layout.name = compiler.get_name(resource.base_type_id);
        layout.read_only =
            uniform || compiler.get_buffer_block_flags(resource.id).get(spv::DecorationNonWritable);
        const Walker walker{compiler, layout.name};
        walker.block_layout(resource.base_type_id, layout);
        // An array of buffers is one parameter per element.
        const SPIRType& type = compiler.get_type(resource.type_id);
        uint64_t count = 1;
        for (size_t d = 0; d < type.array.size(); ++d) {
          if (type.array_size_literal[d] && type.array[d] == 0)
            throw Error(Error::Kind::UnsupportedFeature,
                        "buffer array '" + layout.name + "' (set " + std::to_string(layout.set) +
                            ", binding " + std::to_string(layout.binding) +
                            ") has no size; its parameters cannot be counted");
          count *= walker.array_length(type, d);
        }
        for (uint64_t i = 0; i < count; ++i) {
          out.buffers.push_back(layout);
          out.buffers.back().array_index = static_cast<uint32_t>(i);
        }
      }
    };
    add_blocks(resources.storage_buffers, false);
    add_blocks(resources.uniform_buffers, true);
    std::stable_sort(out.buffers.begin(), out.buffers.end(), [](const BlockLayout& a, const BlockLayout& b) {
      if (a.set != b.set) return a.set < b.set;
      if (a.binding != b.binding) return a.binding < b.binding;
      if (a.array_index != b.array_index) return a.array_index < b.array_index;
      return a.fixed_size > b.fixed_size;  // the largest view of an aliased binding first
    });
    // Several blocks at one (set, binding, element) are views of one parameter.
    out.buffers.erase(std::unique(out.buffers.begin(), out.buffers.end(),
                                  [](const BlockLayout& a, const BlockLayout& b) {
                                    return a.set == b.set && a.binding == b.binding &&
                                           a.array_index == b.array_index;
                                  }),
                      out.buffers.end());
    if (!resources.push_constant_buffers.empty()) {
      const spirv_cross::Resource& resource = resources.push_constant_buffers[0];
      out.has_push_constants = true;
      out.push_constants.name = compiler.get_name(resource.id);
      if (out.push_constants.name.empty()) out.push_constants.name = compiler.get_name(resource.base_type_id);
      out.push_constants.read_only = true;
      const Walker walker{compiler, out.push_constants.name};
      walker.block_layout(resource.base_type_id, out.push_constants);
    }
  } catch (const spirv_cross::CompilerError& e) {
    throw Error(Error::Kind::InvalidSpirv, std::string("SPIR-V layout reflection failed: ") + e.what());
  }
  return out;
}

}  // namespace porta::translator
