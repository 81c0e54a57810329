#pragma once
// The tools that draw figures hand them to the Python package (landscape.plots, matplotlib): this
// runs `python3 -m landscape.plots ARGS...` with the build's module on PYTHONPATH, or, when this
// build has no Python module, prints the command to run where one is installed.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace landscape {

/// The shell word of s in single quotes.
inline std::string shellQuoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// Runs the plot command; returns its exit status (0 when the command was only printed).
inline int runPythonPlot(const std::string& tool, const std::vector<std::string>& args) {
  std::string python = LANDSCAPE_PYTHON_EXECUTABLE;
  std::string command = " -m landscape.plots";
  for (const std::string& a : args) command += " " + shellQuoted(a);
  if (python.empty()) {
    std::printf("%s: this build has no Python module; draw the figure with\n  python3%s\n",
                tool.c_str(), command.c_str());
    return 0;
  }
  const std::string path = std::string(LANDSCAPE_PYTHON_DIR);
  const char* old = std::getenv("PYTHONPATH");
  const std::string full = "PYTHONPATH=" + shellQuoted(old && *old ? path + ":" + old : path) +
                           " " + shellQuoted(python) + command;
  const int status = std::system(full.c_str());
  return status == 0 ? 0 : 1;
}

}  // namespace landscape
