#include "fuzz/allocated_case.h"

namespace syncbisim::fuzz {

namespace {

void fault(AllocatedCase& c, AllocatorFault f, std::string detail) {
  c.failure = f;
  c.what = std::string(to_string(f)) + ": " + detail;
}

}  // namespace

AllocatedCase allocate_and_check(const AllocateFn& allocate, const model::Program& spec, const model::ProgramIndex& ix,
                                 const JudgeOptions& options, const Failure* target) {
  AllocatedCase c;
  c.reply = allocate(spec, ix);
  if (const auto* d = std::get_if<Declined>(&c.reply.answer)) {
    if (options.declined_is_failure) fault(c, AllocatorFault::Declined, d->reason);
    else c.declined = true;
  } else if (const auto* f = std::get_if<Faulted>(&c.reply.answer)) {
    fault(c, f->fault, f->detail);
  } else {
    const auto& impl = std::get<Allocated>(c.reply.answer).impl;
    // An impl that is not a valid program is bad output; one that is valid but has another
    // tree or other instructions is a tree mismatch (analysis/correspondence.h says where).
    if (auto impl_ix = model::ProgramIndex::build(impl); !impl_ix) {
      auto d = impl_ix.error();
      d.file = "<allocator output>";
      fault(c, AllocatorFault::BadOutput, d.to_string());
    } else {
      const ViolationAt* violation = target ? std::get_if<ViolationAt>(target) : nullptr;
      auto r = check_case(spec, impl, options.check, violation);
      if (!r.invalid.empty()) {
        fault(c, AllocatorFault::TreeMismatch, "the impl does not correspond to its spec: " + r.invalid);
      } else if (r.failure) {
        c.failure = *r.failure;
        c.what = to_string(*c.failure);
      }
      if (violation) c.target_shown = r.target_shown;
      if (r.invalid.empty()) c.check = std::move(r);
    }
  }
  if (target && std::holds_alternative<AllocatorFault>(*target)) c.target_shown = c.failure == *target;
  return c;
}

}  // namespace syncbisim::fuzz
