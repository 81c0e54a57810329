#include "landscape/formats/PathsampleKineticsFiles.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "landscape/formats/LowestFile.h"

namespace landscape {

namespace detail {

std::string fortranGE4(double value, int width, int digits) {
  if (!std::isfinite(value)) return fortranG(value, width, digits);
  constexpr int kExponentDigits = 4;
  constexpr int kTrailingBlanks = kExponentDigits + 2;  // n = e + 2 for Gw.dEe (F2008 10.7.5.2.2)
  const std::string blanks(kTrailingBlanks, ' ');
  char buffer[128];
  const double magnitude = std::fabs(value);
  auto fixed = [&](int decimals) {
    std::snprintf(buffer, sizeof buffer, "%*.*f", width - kTrailingBlanks, decimals, value);
    return std::string(buffer) + blanks;
  };
  if (magnitude == 0.0) return fixed(digits - 1);
  // The F form is chosen on the value rounded to d significant digits, hence the 0.5 ulp terms.
  if (magnitude >= 0.1 - 0.5 * std::pow(10.0, -digits - 1)) {
    for (int s = 0; s <= digits; ++s)
      if (magnitude < std::pow(10.0, s) - 0.5 * std::pow(10.0, s - digits)) return fixed(digits - s);
  }
  // 0.d1d2...dd x 10^(e+1) from C's d1.d2...dd x 10^e.
  std::snprintf(buffer, sizeof buffer, "%.*e", digits - 1, magnitude);
  const std::string c(buffer);
  const std::size_t e = c.find('e');
  std::string mantissa = c.substr(0, 1) + c.substr(2, e - 2);
  const int exponent = std::atoi(c.c_str() + e + 1) + 1;
  std::snprintf(buffer, sizeof buffer, "%c%0*d", exponent < 0 ? '-' : '+', kExponentDigits,
                std::abs(exponent));
  std::string text = std::string(value < 0 ? "-" : "") + "0." + mantissa + "E" + buffer;
  if (static_cast<int>(text.size()) < width) text.insert(0, width - text.size(), ' ');
  return text;
}

}  // namespace detail

std::string formatCommitData(const std::vector<double>& committorA) {
  std::string text;
  for (double q : committorA) text += detail::fortranG(std::isnan(q) ? 0.0 : q, 20, 10) + "\n";
  return text;
}

std::string formatRatesFile(const std::vector<RatesFileRow>& rows) {
  std::string text;
  for (const RatesFileRow& row : rows) {
    text += detail::fortranGE4(row.temperature, 20, 10) + detail::fortranGE4(row.aFromB, 20, 10) +
            detail::fortranGE4(row.bFromA, 20, 10) + "\n";
  }
  return text;
}

std::string formatPassageRatesFile(const std::vector<PassageRatesFileRow>& rows) {
  std::string text;
  for (const PassageRatesFileRow& row : rows) {
    text += detail::fortranGE4(row.temperature, 20, 10) + detail::fortranGE4(row.aFromB, 20, 10) +
            detail::fortranGE4(row.bFromA, 20, 10) +
            detail::fortranGE4(row.passageTimeAFromB, 20, 10) +
            detail::fortranGE4(row.passageTimeBFromA, 20, 10) + "\n";
  }
  return text;
}

std::string formatLogRatesFile(const std::vector<LogRatesFileRow>& rows) {
  std::string text =
      "# T  ln k(A<-B)  ln k(B<-A)  ln kSS(A<-B)  ln kSS(B<-A)  ln kNSS(A<-B)  ln kNSS(B<-A)  "
      "ln MFPT(A<-B)  ln MFPT(B<-A)   (rates in the inverse time unit, MFPT in the time unit)\n";
  char buffer[64];
  for (const LogRatesFileRow& row : rows) {
    std::snprintf(buffer, sizeof buffer, "%.12e", row.temperature);
    text += buffer;
    for (const double* pair : {row.logK, row.logKSS, row.logKNSS, row.logMfpt})
      for (int i = 0; i < 2; ++i) {
        std::snprintf(buffer, sizeof buffer, " %.12e", pair[i]);
        text += buffer;
      }
    text += "\n";
  }
  return text;
}

}  // namespace landscape
