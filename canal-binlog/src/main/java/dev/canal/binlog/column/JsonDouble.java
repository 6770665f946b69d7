package dev.canal.binlog.column;

import dev.canal.binlog.io.MalformedDataException;

/**
 * A JSON double as MySQL prints it (checked against MySQL 9.7 {@code SELECT JSON_ARRAY(...)}): the shortest
 * digits that read back as the same double, in plain notation unless the decimal exponent is above 15 or below
 * -14 ({@code 1e22}, {@code 1.5e-20}, {@code 1.2345678901234568e17}); plain integral values get {@code .0}
 * ({@code 1.0}, {@code 100000000000000.0}, {@code -0.0}).
 */
final class JsonDouble {

    /** MySQL's MAX_DECPT_FOR_F_FORMAT (DBL_DIG). */
    private static final int MAX_DECIMAL_POINT_FOR_PLAIN = 15;

    private JsonDouble() {
    }

    static String toText(double d) {
        if (d == 0) {
            return (1 / d < 0) ? "-0.0" : "0.0";
        }
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            throw new MalformedDataException("JSON double " + d + " cannot be stored");
        }
        String javaText = Double.toString(Math.abs(d));
        // Java prints d.ddd or d.dddE[-]n; turn that into a digit string and the decimal point position.
        int e = javaText.indexOf('E');
        String mantissa = e < 0 ? javaText : javaText.substring(0, e);
        int exponent = e < 0 ? 0 : Integer.parseInt(javaText.substring(e + 1));
        int dot = mantissa.indexOf('.');
        String digits = mantissa.substring(0, dot) + mantissa.substring(dot + 1);
        int decimalPoint = dot + exponent;
        int lead = 0;
        while (lead < digits.length() - 1 && digits.charAt(lead) == '0') {
            lead++;
            decimalPoint--;
        }
        int trail = digits.length();
        while (trail > lead + 1 && digits.charAt(trail - 1) == '0') {
            trail--;
        }
        digits = digits.substring(lead, trail);
        int len = digits.length();
        StringBuilder sb = new StringBuilder(len + 8);
        if (d < 0) {
            sb.append('-');
        }
        boolean plain = decimalPoint >= -MAX_DECIMAL_POINT_FOR_PLAIN + 1
                && (decimalPoint <= MAX_DECIMAL_POINT_FOR_PLAIN || len > decimalPoint);
        if (plain) {
            if (decimalPoint <= 0) {
                sb.append("0.");
                sb.append("0".repeat(-decimalPoint));
                sb.append(digits);
            } else if (decimalPoint < len) {
                sb.append(digits, 0, decimalPoint).append('.').append(digits, decimalPoint, len);
            } else {
                sb.append(digits);
                sb.append("0".repeat(decimalPoint - len));
                sb.append(".0");
            }
        } else {
            sb.append(digits.charAt(0));
            if (len > 1) {
                sb.append('.').append(digits, 1, len);
            }
            sb.append('e').append(decimalPoint - 1);
        }
        return sb.toString();
    }
}
