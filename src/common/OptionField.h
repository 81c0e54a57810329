#pragma once
// How an option's value meets the C++ field it lands in: the kind of value follows the field's
// type -- double (a real), integers, bool (yes|no, or a switch), std::string (text, a file name or
// a choice), enums (a choice), std::optional, std::vector (comma-separated) and std::array of
// those -- text becomes the field's value through its rule (OptionValue.h), and the field shows
// as text for --help and for checkpoint fingerprints.
#include <array>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "src/common/OptionList.h"
#include "src/common/OptionValue.h"

namespace landscape {

namespace option_field {

template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {};
template <class T>
struct IsVector : std::false_type {};
template <class T>
struct IsVector<std::vector<T>> : std::true_type {};
template <class T>
struct IsArray : std::false_type {};
template <class T, std::size_t N>
struct IsArray<std::array<T, N>> : std::true_type {};

template <class T>
constexpr ValueKind kindOf() {
  if constexpr (IsOptional<T>::value || IsVector<T>::value || IsArray<T>::value) {
    return kindOf<typename T::value_type>();
  } else if constexpr (std::is_same_v<T, bool>) {
    return ValueKind::YesNo;
  } else if constexpr (std::is_enum_v<T>) {
    return ValueKind::Choice;
  } else if constexpr (std::is_integral_v<T>) {
    return ValueKind::Integer;
  } else if constexpr (std::is_floating_point_v<T>) {
    return ValueKind::Real;
  } else {
    return ValueKind::Text;
  }
}

template <class T>
void assign(T& field, const std::string& text, const OptionInfo& o) {
  if constexpr (IsOptional<T>::value) {
    typename T::value_type v{};
    assign(v, text, o);
    field = v;
  } else if constexpr (IsVector<T>::value) {
    field.clear();
    for (const auto& item : splitList(text)) {
      typename T::value_type v{};
      assign(v, item, o);
      field.push_back(v);
    }
  } else if constexpr (IsArray<T>::value) {
    const std::vector<std::string> items = splitList(text);
    if (items.size() != field.size())
      throw ValueError("expected " + std::to_string(field.size()) +
                       " comma-separated values, found " + quote(text));
    for (std::size_t i = 0; i < items.size(); ++i) assign(field[i], items[i], o);
  } else if constexpr (std::is_same_v<T, bool>) {
    field = parseYesNo(text) != o.inverted;
  } else if constexpr (std::is_enum_v<T>) {
    field = static_cast<T>(parseChoice(text, o.rule));
  } else if constexpr (std::is_integral_v<T>) {
    using Limits = std::numeric_limits<T>;
    constexpr long long top =
        Limits::max() > static_cast<unsigned long long>(std::numeric_limits<long long>::max())
            ? std::numeric_limits<long long>::max()
            : static_cast<long long>(Limits::max());
    field = static_cast<T>(parseInteger(text, o.rule, static_cast<long long>(Limits::min()), top));
  } else if constexpr (std::is_floating_point_v<T>) {
    field = parseReal(text, o.rule) * o.scale;
  } else {
    field = parseText(text, o.rule);
  }
}

/// The field as text: for --help (`exact` false: as people read it) or for a checkpoint
/// fingerprint (`exact` true: every bit, switches on/off).
template <class T>
std::string show(const T& field, const OptionInfo& o, bool exact) {
  if constexpr (IsOptional<T>::value) {
    return field ? show(*field, o, exact) : "none";
  } else if constexpr (IsVector<T>::value || IsArray<T>::value) {
    std::string out;
    for (const auto& v : field) out += (out.empty() ? "" : ",") + show(v, o, exact);
    return out;
  } else if constexpr (std::is_same_v<T, bool>) {
    const bool on = field != o.inverted;
    if (!exact && o.rule.kind == ValueKind::YesNo) return on ? "yes" : "no";
    return on ? "on" : "off";
  } else if constexpr (std::is_enum_v<T>) {
    return o.rule.choiceName(static_cast<long long>(field));
  } else if constexpr (std::is_integral_v<T>) {
    return std::to_string(field);
  } else if constexpr (std::is_floating_point_v<T>) {
    return exact ? exactText(field) : shortText(field / o.scale);
  } else {
    return field.empty() && exact ? "none" : std::string(field);
  }
}

}  // namespace option_field

/// The field at the end of a chain of member pointers: fieldOf(&Run::params, &Params::steps).
template <class... Members>
auto fieldOf(Members... members) {
  return [=](auto& c) -> auto& { return (c.*....*members); };
}

}  // namespace landscape
