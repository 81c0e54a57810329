#pragma once
// Parameter structs (LbfgsParams, BasinHoppingParams, ...) as Python classes whose fields are
// attributes and whose constructor takes them as keywords, checked by the struct's own check():
//   landscape.LbfgsParams(max_iterations=2000, rms_tolerance=1e-6)
// Each field is declared once (name, member, docstring with units) for both uses.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace landscape::python {

namespace nb = nanobind;

template <typename T>
class ParamsClass {
 public:
  ParamsClass(nb::handle scope, const char* name, const char* doc)
      : m_class(scope, name, doc), m_setters(std::make_shared<Setters>()) {}

  template <typename V>
  ParamsClass& field(const char* name, V T::*member, const char* doc) {
    m_class.def_rw(name, member, doc);
    (*m_setters)[name] = [member](T& t, nb::handle value) { t.*member = nb::cast<V>(value); };
    m_names->push_back(name);
    return *this;
  }

  /// Adds the keyword constructor (check() runs on the result) and returns the class.
  nb::class_<T>& done() {
    std::shared_ptr<Setters> setters = m_setters;
    m_class.def(
        "__init__",
        [setters](T* self, nb::kwargs fields) {
          T value;
          for (auto [key, item] : fields) {
            const std::string name = nb::cast<std::string>(key);
            const auto setter = setters->find(name);
            if (setter == setters->end())
              throw nb::type_error(("unknown field '" + name +
                                    "' (the fields are the class's "
                                    "attributes; see help())")
                                       .c_str());
            setter->second(value, item);
          }
          value.check();
          new (self) T(std::move(value));
        },
        "Keyword arguments set the fields of the same name; the rest keep their defaults.");
    m_class.def("check", &T::check, "Raises ValueError naming the first bad field.");
    // LbfgsParams(history_size=4, ...): every field, so that a printed value can be pasted back.
    std::shared_ptr<std::vector<std::string>> names = m_names;
    m_class.def("__repr__", [names](nb::handle self) {
      std::string text = nb::cast<std::string>(self.type().attr("__name__")) + "(";
      for (std::size_t k = 0; k < names->size(); ++k)
        text += (k ? ", " : "") + (*names)[k] + "=" +
                nb::cast<std::string>(nb::repr(self.attr((*names)[k].c_str())));
      return text + ")";
    });
    return m_class;
  }

 private:
  using Setters = std::map<std::string, std::function<void(T&, nb::handle)>>;
  nb::class_<T> m_class;
  std::shared_ptr<Setters> m_setters;
  std::shared_ptr<std::vector<std::string>> m_names = std::make_shared<std::vector<std::string>>();
};

}  // namespace landscape::python
